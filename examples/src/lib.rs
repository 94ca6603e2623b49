//! The example servers live in `catalog/` and `conformance/`.
