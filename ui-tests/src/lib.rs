//! The ui cases live in `tests/ui/`.
