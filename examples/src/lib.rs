//! The example servers live in `catalog/`, `conformance/`, `weather/` and `axum-app/` (each an
//! `[[example]]` of this package); `notes/` is a package of its own, so that its bundled SQLite
//! is compiled only when it is built.
