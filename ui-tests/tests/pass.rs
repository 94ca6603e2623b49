//! The `#[tool]`, `#[resource]` and `#[prompt]` uses that must compile and run: each program in
//! `src/bin/` is built with the workspace (so linted by its `clippy -D warnings` too, as a user's
//! crate would be) and run here, and must exit successfully (most assert on what a client sees).
//! They were trybuild `pass` cases; as bins they share the workspace's build of the dependencies,
//! and trybuild, left with compile-fail cases only, checks rather than builds its own.

use std::process::Command;

/// One test per program, so a failure names its case.
macro_rules! pass {
    ($($case:ident),* $(,)?) => {
        $(
            #[test]
            fn $case() {
                let output = Command::new(env!(concat!("CARGO_BIN_EXE_", stringify!($case))))
                    .output()
                    .expect("the case's program runs");
                assert!(
                    output.status.success(),
                    "{} exited with {}:\n{}{}",
                    stringify!($case),
                    output.status,
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr),
                );
            }
        )*

        /// Every program in `src/bin/` is run by a test above.
        #[test]
        fn every_case_is_run() {
            let listed = [$(stringify!($case)),*];
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/bin");
            let mut found: Vec<String> = std::fs::read_dir(dir)
                .expect("src/bin")
                .filter_map(|entry| {
                    let name = entry.ok()?.file_name().into_string().ok()?;
                    Some(name.strip_suffix(".rs")?.to_owned())
                })
                .collect();
            found.sort();
            assert_eq!(found, listed, "list each program of src/bin/ in tests/pass.rs");
        }
    };
}

pass!(
    adapter_names,
    context_paths,
    context_positions,
    crate_rename,
    description_override,
    doc_macros,
    header_params,
    icons,
    inline_params,
    lone_std_param,
    no_args,
    param_attrs,
    prompt_styles,
    return_types,
    shadowed_names,
    state_params,
    static_args,
    struct_args,
    sync_fn,
    task_keys,
);
