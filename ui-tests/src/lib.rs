//! The compile-fail cases live in `tests/ui/fail/`, the programs that must compile and run in `src/bin/`.
