//! The Skills extension (SEP-2640) as a client sees it, in process (`TestClient`, the real
//! dispatch path), in both eras: the capability, `skills/list` (entries, pages), `skills/get`,
//! the `skill://` files through `resources/read` and `resources/list`,
//! `resources/directory/read`, unknown URIs, a skills folder and a skill built in code side by
//! side, and the start-up errors of a bad `SKILL.md`, each naming the file and the field.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_toolbelt::error::RegistryError;
use mcp_toolbelt::skill::Skill;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Error, Server};
use serde_json::{Value, json};

const NOTE_TAKING: &str = "---\nname: note-taking\ndescription: Take notes that stay findable\nmetadata:\n  version: \"1.2\"\n  tags: [notes, search]\n---\n\n# Note taking\n\nTag every note; see `references/TAGS.md`.\n";
const TAGS: &str = "# Tags\n\nOne word, lowercase.\n";
/// The SHA-256 of `abc`, the FIPS 180-2 test vector.
const ABC_DIGEST: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

/// A fresh folder under the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "mcp-toolbelt-skills-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary folder");
        Self(path)
    }

    fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(relative);
        fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        fs::write(&path, contents).expect("written");
        path
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A skills folder with `note-taking` (a reference, a script in a sub-folder, a binary file)
/// and the server serving it next to `release-notes`, built in code.
fn skills_folder() -> Folder {
    let folder = Folder::new();
    folder.write("note-taking/SKILL.md", NOTE_TAKING);
    folder.write("note-taking/references/TAGS.md", TAGS);
    folder.write("note-taking/scripts/abc.txt", "abc");
    folder.write(
        "note-taking/scripts/logo.png",
        [0x89, b'P', b'N', b'G', 0xff],
    );
    folder.write("note-taking/.hidden", "never served");
    folder.write("README.md", "a file beside the skills is no skill");
    folder
}

fn release_notes() -> Skill {
    Skill::new("---\nname: release-notes\ndescription: Write release notes\n---\n# Release notes\n")
        .file("templates/NOTES.md", "## Added\n")
}

fn server(folder: &Folder) -> Server {
    Server::new("skills", "1.0.0")
        .skills_dir(folder.path())
        .skill(release_notes())
}

/// `params` as a 2026-07-28 request's.
fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

/// The request's params in each era: legacy, then 2026-07-28.
fn both_eras(params: &Value) -> [(bool, Value); 2] {
    [(false, params.clone()), (true, modern(params.clone()))]
}

#[tokio::test]
async fn the_capability_is_declared_in_both_eras_with_directory_read() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder));
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    let capabilities = &initialized["result"]["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    assert!(capabilities["resources"].is_object(), "{capabilities}");
    let discovered = client.request("server/discover", modern(json!({}))).await;
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );

    // A server without skills declares nothing, and knows none of the methods.
    let plain = TestClient::new(Server::new("plain", "1.0.0"));
    let discovered = plain.request("server/discover", modern(json!({}))).await;
    assert!(
        discovered["result"]["capabilities"]
            .get("extensions")
            .is_none()
    );
    for method in ["skills/list", "skills/get", "resources/directory/read"] {
        let answer = plain
            .request(method, json!({"uri": "skill://a/SKILL.md"}))
            .await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
}

#[tokio::test]
async fn skills_list_gives_each_entry_its_front_matter_and_every_file_with_size_and_digest() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder));
    for (is_modern, params) in both_eras(&json!({})) {
        let listed = client.request("skills/list", params).await;
        let result = &listed["result"];
        let skills = result["skills"].as_array().expect("skills");
        let uris: Vec<_> = skills.iter().map(|skill| skill["uri"].clone()).collect();
        assert_eq!(
            uris,
            [
                json!("skill://note-taking/SKILL.md"),
                json!("skill://release-notes/SKILL.md")
            ]
        );
        let note_taking = &skills[0];
        assert_eq!(
            note_taking["frontmatter"],
            json!({
                "name": "note-taking",
                "description": "Take notes that stay findable",
                "metadata": {"version": "1.2", "tags": ["notes", "search"]},
            }),
            "the front matter verbatim, nested fields and all"
        );
        let files = note_taking["resources"].as_array().expect("resources");
        let file = |uri: &str| {
            files
                .iter()
                .find(|file| file["uri"] == uri)
                .unwrap_or_else(|| panic!("{uri} in {files:?}"))
        };
        assert_eq!(
            files.len(),
            4,
            "SKILL.md and three files, the hidden one left out: {files:?}"
        );
        assert_eq!(
            file("skill://note-taking/SKILL.md")["size"],
            NOTE_TAKING.len()
        );
        assert_eq!(
            file("skill://note-taking/references/TAGS.md")["size"],
            TAGS.len()
        );
        assert_eq!(
            file("skill://note-taking/scripts/abc.txt")["digest"],
            ABC_DIGEST
        );
        assert_eq!(file("skill://note-taking/scripts/logo.png")["size"], 5);
        for file in files {
            let digest = file["digest"].as_str().expect("a digest");
            assert!(
                digest.starts_with("sha256:") && digest.len() == 71,
                "{digest}"
            );
        }
        assert_eq!(
            skills[1]["resources"].as_array().map(Vec::len),
            Some(2),
            "the skill built in code: SKILL.md and its template"
        );
        assert!(result.get("nextCursor").is_none());
        assert_eq!(result.get("ttlMs").is_some(), is_modern, "{result}");
        assert_eq!(result.get("cacheScope").is_some(), is_modern, "{result}");
        // Written from entries serialized once, the page still carries what every 2026-07-28
        // result carries.
        if is_modern {
            assert_eq!(result["resultType"], "complete", "{result}");
            assert_eq!(
                result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "skills",
                "{result}"
            );
        } else {
            assert!(result.get("resultType").is_none() && result.get("_meta").is_none());
        }
    }
}

#[tokio::test]
async fn skills_list_pages_as_the_other_lists_and_keeps_each_entry_whole() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder).page_size(1));
    let first = client.request("skills/list", json!({})).await;
    assert_eq!(first["result"]["skills"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        first["result"]["skills"][0]["resources"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    let cursor = first["result"]["nextCursor"].as_str().expect("a next page");
    let second = client
        .request("skills/list", modern(json!({"cursor": cursor})))
        .await;
    assert_eq!(
        second["result"]["skills"][0]["uri"],
        "skill://release-notes/SKILL.md"
    );
    assert!(second["result"].get("nextCursor").is_none(), "{second}");
    let refused = client.request("skills/list", json!({"cursor": "%%"})).await;
    assert_eq!(refused["error"]["code"], -32602);
}

#[tokio::test]
async fn skills_get_gives_the_listed_entry_and_an_unknown_uri_is_invalid_params() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder));
    let listed = client.request("skills/list", json!({})).await;
    for (is_modern, params) in both_eras(&json!({"uri": "skill://release-notes/SKILL.md"})) {
        let got = client.request("skills/get", params).await;
        let result = &got["result"];
        assert_eq!(result["skill"], listed["result"]["skills"][1]);
        assert!(result.get("nextCursor").is_none());
        assert_eq!(result.get("ttlMs").is_some(), is_modern, "{result}");
    }
    for (_, params) in both_eras(&json!({"uri": "skill://nobody/SKILL.md"})) {
        let unknown = client.request("skills/get", params).await;
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
        assert_eq!(unknown["error"]["data"]["uri"], "skill://nobody/SKILL.md");
    }
    // A file of a skill is no skill.
    let file = client
        .request(
            "skills/get",
            json!({"uri": "skill://note-taking/references/TAGS.md"}),
        )
        .await;
    assert_eq!(file["error"]["code"], -32602);
    let missing = client.request("skills/get", json!({})).await;
    assert_eq!(missing["error"]["code"], -32602);
}

#[tokio::test]
async fn a_skills_files_are_resources_read_as_their_listed_bytes() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder));
    for (is_modern, params) in both_eras(&json!({"uri": "skill://note-taking/SKILL.md"})) {
        let read = client.request("resources/read", params).await;
        let contents = &read["result"]["contents"][0];
        assert_eq!(
            contents["text"], NOTE_TAKING,
            "byte for byte, front matter included"
        );
        assert_eq!(contents["mimeType"], "text/markdown");
        assert_eq!(read["result"].get("ttlMs").is_some(), is_modern);
    }
    let reference = client
        .request(
            "resources/read",
            json!({"uri": "skill://note-taking/references/TAGS.md"}),
        )
        .await;
    assert_eq!(reference["result"]["contents"][0]["text"], TAGS);
    let logo = client
        .request(
            "resources/read",
            json!({"uri": "skill://note-taking/scripts/logo.png"}),
        )
        .await;
    assert_eq!(logo["result"]["contents"][0]["blob"], "iVBOR/8=");
    assert_eq!(logo["result"]["contents"][0]["mimeType"], "image/png");
    let template = client
        .request(
            "resources/read",
            json!({"uri": "skill://release-notes/templates/NOTES.md"}),
        )
        .await;
    assert_eq!(template["result"]["contents"][0]["text"], "## Added\n");
    let unknown = client
        .request(
            "resources/read",
            json!({"uri": "skill://note-taking/.hidden"}),
        )
        .await;
    assert_eq!(unknown["error"]["code"], -32602);

    // Listed, SKILL.md named and described from its front matter.
    let listed = client.request("resources/list", json!({})).await;
    let resources = listed["result"]["resources"].as_array().expect("resources");
    let skill_md = resources
        .iter()
        .find(|resource| resource["uri"] == "skill://note-taking/SKILL.md")
        .expect("SKILL.md listed");
    assert_eq!(
        *skill_md,
        json!({
            "uri": "skill://note-taking/SKILL.md",
            "name": "note-taking",
            "description": "Take notes that stay findable",
            "mimeType": "text/markdown",
        })
    );
    assert_eq!(
        resources.len(),
        6,
        "every file of both skills: {resources:?}"
    );
}

#[tokio::test]
async fn a_directory_read_lists_direct_children_and_refuses_what_is_no_directory() {
    let folder = skills_folder();
    let client = TestClient::new(server(&folder));
    for (is_modern, params) in both_eras(&json!({"uri": "skill://note-taking"})) {
        let read = client.request("resources/directory/read", params).await;
        assert_eq!(read["result"].get("ttlMs").is_some(), is_modern, "{read}");
        assert_eq!(
            read["result"]["resources"],
            json!([
                {"uri": "skill://note-taking/SKILL.md", "name": "note-taking", "description": "Take notes that stay findable", "mimeType": "text/markdown", "size": NOTE_TAKING.len()},
                {"uri": "skill://note-taking/references", "name": "references", "mimeType": "inode/directory"},
                {"uri": "skill://note-taking/scripts", "name": "scripts", "mimeType": "inode/directory"},
            ])
        );
    }
    let scripts = client
        .request(
            "resources/directory/read",
            json!({"uri": "skill://note-taking/scripts"}),
        )
        .await;
    let uris: Vec<_> = scripts["result"]["resources"]
        .as_array()
        .expect("children")
        .iter()
        .map(|child| child["uri"].as_str().expect("a uri").to_owned())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://note-taking/scripts/abc.txt",
            "skill://note-taking/scripts/logo.png"
        ]
    );
    // A file is listed as resources/list lists it, plus its size, in both eras.
    for (_, params) in both_eras(&json!({})) {
        let listed = client.request("resources/list", params.clone()).await;
        let mut read_params = params;
        read_params["uri"] = json!("skill://note-taking/scripts");
        let children = client
            .request("resources/directory/read", read_params)
            .await;
        for child in children["result"]["resources"]
            .as_array()
            .expect("children")
        {
            let mut entry = listed["result"]["resources"]
                .as_array()
                .expect("resources")
                .iter()
                .find(|resource| resource["uri"] == child["uri"])
                .expect("the file is a listed resource")
                .clone();
            entry["size"] = child["size"].clone();
            assert!(child["size"].is_u64(), "{child}");
            assert_eq!(*child, entry);
        }
    }
    for uri in [
        "skill://note-taking/SKILL.md",
        "skill://nobody",
        "skill://note-taking/",
    ] {
        let refused = client
            .request("resources/directory/read", modern(json!({"uri": uri})))
            .await;
        assert_eq!(refused["error"]["code"], -32602, "{uri}: {refused}");
        assert_eq!(refused["error"]["data"]["uri"], uri);
    }

    // Paged as resources/list is.
    let paged = TestClient::new(server(&folder).page_size(2));
    let first = paged
        .request(
            "resources/directory/read",
            json!({"uri": "skill://note-taking"}),
        )
        .await;
    assert_eq!(
        first["result"]["resources"].as_array().map(Vec::len),
        Some(2)
    );
    let cursor = first["result"]["nextCursor"].as_str().expect("a next page");
    let second = paged
        .request(
            "resources/directory/read",
            json!({"uri": "skill://note-taking", "cursor": cursor}),
        )
        .await;
    assert_eq!(
        second["result"]["resources"][0]["uri"],
        "skill://note-taking/scripts"
    );
    assert!(second["result"].get("nextCursor").is_none());
}

#[tokio::test]
async fn folders_of_folders_are_organizational_prefixes_of_the_skills_below() {
    let folder = Folder::new();
    folder.write(
        "acme/billing/refunds/SKILL.md",
        "---\nname: refunds\ndescription: Refund per policy\n---\n",
    );
    folder.write("acme/billing/refunds/examples/email.md", "Dear customer");
    folder.write(
        "acme/support/refunds/SKILL.md",
        "---\nname: refunds\ndescription: Refunds, as support sees them\n---\n",
    );
    let client = TestClient::new(Server::new("skills", "1.0.0").skills_dir(folder.path()));
    let listed = client.request("skills/list", modern(json!({}))).await;
    let uris: Vec<_> = listed["result"]["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|skill| skill["uri"].as_str().expect("a uri").to_owned())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://acme/support/refunds/SKILL.md"
        ],
        "one name, two skills, told apart by their paths"
    );
    let email = client
        .request(
            "resources/read",
            json!({"uri": "skill://acme/billing/refunds/examples/email.md"}),
        )
        .await;
    assert_eq!(email["result"]["contents"][0]["text"], "Dear customer");
    let children = |uri: &'static str| {
        let client = &client;
        async move {
            let read = client
                .request("resources/directory/read", json!({"uri": uri}))
                .await;
            read["result"]["resources"]
                .as_array()
                .unwrap_or_else(|| panic!("{uri}: {read}"))
                .iter()
                .map(|child| {
                    format!(
                        "{} {}",
                        child["uri"].as_str().unwrap_or(""),
                        child["mimeType"].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        children("skill://acme").await,
        [
            "skill://acme/billing inode/directory",
            "skill://acme/support inode/directory"
        ]
    );
    assert_eq!(
        children("skill://acme/billing").await,
        ["skill://acme/billing/refunds inode/directory"]
    );
    assert_eq!(
        children("skill://acme/billing/refunds").await,
        [
            "skill://acme/billing/refunds/SKILL.md text/markdown",
            "skill://acme/billing/refunds/examples inode/directory"
        ]
    );
}

/// The problem `server` refuses to start with: the file, the field and the text, from `check`
/// and from `into_router` alike (never a panic).
fn refused(server: impl Fn() -> Server) -> (String, Option<String>, String) {
    let Err(Error::Registry(RegistryError::InvalidSkill {
        file,
        field,
        problem,
        ..
    })) = server().check()
    else {
        panic!("the skill should be refused");
    };
    let routed = server()
        .into_router()
        .map(|_| ())
        .expect_err("refused to serve");
    let text = routed.to_string();
    assert!(text.contains(&file) && text.contains(&problem), "{text}");
    if let Some(field) = &field {
        assert!(text.contains(&format!("`{field}`")), "{text}");
    }
    (file, field, problem)
}

#[test]
fn a_bad_skill_md_in_a_folder_stops_the_server_naming_the_file_and_the_field() {
    let cases = [
        ("# No front matter\n", None, "no front matter"),
        ("---\ndescription: d\n---\n", Some("name"), "missing"),
        (
            "---\nname: Notes_2\ndescription: d\n---\n",
            Some("name"),
            "not a skill name",
        ),
        (
            "---\nname: other\ndescription: d\n---\n",
            Some("name"),
            "the skill's folder is `notes`",
        ),
        ("---\nname: notes\n---\n", Some("description"), "missing"),
        (
            "---\nname: notes\ndescription: [unclosed\n---\n",
            None,
            "not valid YAML",
        ),
    ];
    for (skill_md, want_field, want_problem) in cases {
        let folder = Folder::new();
        let path = folder.write("notes/SKILL.md", skill_md);
        let (file, field, problem) =
            refused(|| Server::new("skills", "1.0.0").skills_dir(folder.path()));
        assert_eq!(file, path.display().to_string(), "{skill_md}");
        assert_eq!(field.as_deref(), want_field, "{skill_md}: {problem}");
        assert!(problem.contains(want_problem), "{skill_md}: {problem}");
    }
}

#[test]
fn a_folder_that_is_no_skill_and_a_missing_skills_folder_stop_the_server() {
    let folder = Folder::new();
    folder.write(
        "notes/SKILL.md",
        NOTE_TAKING.replace("note-taking", "notes"),
    );
    let stray = folder.write("drafts/todo.md", "later");
    let (file, field, problem) =
        refused(|| Server::new("skills", "1.0.0").skills_dir(folder.path()));
    assert_eq!(
        file,
        stray.parent().expect("its folder").display().to_string()
    );
    assert_eq!(field, None);
    assert!(problem.contains("no SKILL.md"), "{problem}");

    // Every problem of the folder in one error: the stray folder's and a bad skill's.
    folder.write("zebra/SKILL.md", "---\nname: Zebra\ndescription: d\n---\n");
    let error = Server::new("skills", "1.0.0")
        .skills_dir(folder.path())
        .check()
        .expect_err("two problems");
    let Error::Registry(RegistryError::Several(problems)) = &error else {
        panic!("both problems: {error}");
    };
    assert_eq!(problems.len(), 2, "{error}");
    assert!(error.to_string().contains("zebra/SKILL.md"), "{error}");

    let missing = folder.path().join("nowhere");
    let (file, _, problem) = refused(|| Server::new("skills", "1.0.0").skills_dir(&missing));
    assert_eq!(file, missing.display().to_string());
    assert!(problem.contains("cannot be read"), "{problem}");
}

#[test]
fn a_bad_skill_built_in_code_names_where_it_was_built() {
    let (file, field, _) =
        refused(|| Server::new("skills", "1.0.0").skill(Skill::new("---\nname: ok\n---\n")));
    assert!(file.contains("tests/tests/served/skills.rs:"), "{file}");
    assert_eq!(field.as_deref(), Some("description"));

    let (_, field, problem) =
        refused(|| Server::new("skills", "1.0.0").skill(release_notes().file("../escape.md", "x")));
    assert_eq!(field, None);
    assert!(problem.contains("not a path inside the skill"), "{problem}");
}

#[test]
fn two_skills_of_one_name_stop_the_server_naming_both() {
    let folder = Folder::new();
    let on_disk = folder.write(
        "release-notes/SKILL.md",
        "---\nname: release-notes\ndescription: From disk\n---\n",
    );
    let (file, field, problem) = refused(|| {
        Server::new("skills", "1.0.0")
            .skills_dir(folder.path())
            .skill(release_notes())
    });
    assert!(file.contains("tests/tests/served/skills.rs:"), "{file}");
    assert_eq!(field.as_deref(), Some("name"));
    assert!(
        problem.contains(&on_disk.display().to_string()) && problem.contains("another skill"),
        "{problem}"
    );
}

/// The one problem `server` refuses to start with, as (file, problem).
fn problem_of(server: Server) -> (String, String) {
    match server.check() {
        Err(Error::Registry(RegistryError::InvalidSkill { file, problem, .. })) => (file, problem),
        other => panic!("one skill problem expected: {other:?}"),
    }
}

fn folder_server(folder: &Folder) -> Server {
    Server::new("skills", "1.0.0").skills_dir(folder.path())
}

/// A skill `notes` in a fresh folder.
fn notes_folder() -> Folder {
    let folder = Folder::new();
    folder.write(
        "notes/SKILL.md",
        NOTE_TAKING.replace("note-taking", "notes"),
    );
    folder
}

#[cfg(unix)]
#[test]
fn a_special_file_in_a_skill_is_refused_naming_it_never_read() {
    let folder = notes_folder();
    let fifo = folder.path().join("notes/pipe.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Reading a FIFO with no writer would wait for ever: it is refused from its type.
    let (file, problem) = problem_of(folder_server(&folder));
    assert_eq!(file, fifo.display().to_string());
    assert!(problem.contains("not a regular file"), "{problem}");
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_refused_naming_the_link_wherever_they_are() {
    use std::os::unix::fs::symlink;

    let outside = Folder::new();
    let secret = outside.write("secret.txt", "not the skill's");
    // A link to a file out of the folder, a link that loops, a skill folder that is a link, a
    // SKILL.md that is a link.
    // `None`: a link to the folder's own `notes`.
    let cases = [
        ("notes/link.txt", Some(&secret)),
        ("notes/loop", None),
        ("elsewhere", None),
        ("other/SKILL.md", Some(&secret)),
    ];
    for (link, target) in cases {
        let folder = notes_folder();
        let at = folder.path().join(link);
        fs::create_dir_all(at.parent().expect("a parent")).expect("its folder");
        let target = target
            .cloned()
            .unwrap_or_else(|| folder.path().join("notes"));
        symlink(target, &at).expect("a link");
        let (file, problem) = problem_of(folder_server(&folder));
        assert_eq!(file, at.display().to_string(), "{link}");
        assert!(problem.contains("symbolic link"), "{link}: {problem}");
    }
}

#[test]
fn a_file_that_would_pass_16_mib_is_refused_before_it_is_read_skill_md_counted() {
    const MIB_16: usize = 16 * 1024 * 1024;
    let skill_md = NOTE_TAKING.replace("note-taking", "notes");
    // Exactly 16 MiB with SKILL.md: served.
    let folder = notes_folder();
    folder.write("notes/big.bin", vec![0xff; MIB_16 - skill_md.len()]);
    folder_server(&folder)
        .check()
        .expect("16 MiB in all is allowed");
    // One byte more: refused, naming the file.
    let big = folder.write("notes/big.bin", vec![0xff; MIB_16 - skill_md.len() + 1]);
    let (file, problem) = problem_of(folder_server(&folder));
    assert_eq!(file, big.display().to_string());
    assert!(problem.contains("16 MiB"), "{problem}");
    // A SKILL.md alone over the limit.
    let folder = Folder::new();
    let huge = folder.write(
        "notes/SKILL.md",
        format!("{skill_md}{}", "x".repeat(MIB_16)),
    );
    let (file, problem) = problem_of(folder_server(&folder));
    assert_eq!(file, huge.display().to_string());
    assert!(problem.contains("16 MiB"), "{problem}");

    // The same limit for a skill built in code.
    let body = "---\nname: big\ndescription: d\n---\n";
    let sized = |extra: usize| {
        Server::new("skills", "1.0.0")
            .skill(Skill::new(body).binary_file("big.bin", vec![0xff; MIB_16 - body.len() + extra]))
    };
    sized(0).check().expect("16 MiB in all is allowed");
    let (_, problem) = problem_of(sized(1));
    assert!(problem.contains("16 MiB"), "{problem}");
}

#[test]
fn a_skill_may_have_512_files_skill_md_included_and_no_more() {
    let folder = notes_folder();
    for index in 0..511 {
        folder.write(&format!("notes/files/{index:03}.txt"), "x");
    }
    folder_server(&folder)
        .check()
        .expect("512 files with SKILL.md");
    let extra = folder.write("notes/files/zzz.txt", "x");
    let (file, problem) = problem_of(folder_server(&folder));
    assert!(problem.contains("512"), "{problem}");
    assert!(
        file.starts_with(&folder.path().join("notes/files").display().to_string()),
        "{file}"
    );
    drop(extra);

    let in_code = |count: usize| {
        (0..count).fold(
            Skill::new("---\nname: many\ndescription: d\n---\n"),
            |skill, index| skill.file(format!("f/{index}.txt"), "x"),
        )
    };
    Server::new("skills", "1.0.0")
        .skill(in_code(511))
        .check()
        .expect("512 files with SKILL.md");
    let (_, problem) = problem_of(Server::new("skills", "1.0.0").skill(in_code(512)));
    assert!(problem.contains("512"), "{problem}");
}

#[test]
fn a_non_utf8_skill_md_is_refused_naming_it() {
    let folder = Folder::new();
    let skill_md = folder.write(
        "notes/SKILL.md",
        b"---\nname: notes\ndescription: \xff\n---\n",
    );
    let (file, problem) = problem_of(folder_server(&folder));
    assert_eq!(file, skill_md.display().to_string());
    assert!(problem.contains("UTF-8"), "{problem}");
}

#[test]
fn folders_nest_at_most_32_deep() {
    let folder = notes_folder();
    folder.write(&format!("notes/{}ok.txt", "d/".repeat(32)), "x");
    folder_server(&folder).check().expect("32 levels");
    let folder = notes_folder();
    folder.write(&format!("notes/{}deep.txt", "d/".repeat(34)), "x");
    let (_, problem) = problem_of(folder_server(&folder));
    assert!(problem.contains("nest deeper"), "{problem}");
}

#[test]
fn pointing_skills_dir_at_one_skill_or_at_nothing_says_what_to_pass() {
    let folder = notes_folder();
    let (_, problem) =
        problem_of(Server::new("skills", "1.0.0").skills_dir(folder.path().join("notes")));
    assert!(problem.contains("pass its parent"), "{problem}");

    let (_, problem) =
        problem_of(Server::new("skills", "1.0.0").skills_dir("no-such-skills-folder"));
    let tried = std::env::current_dir()
        .expect("a current directory")
        .join("no-such-skills-folder");
    assert!(problem.contains(&tried.display().to_string()), "{problem}");
    assert!(problem.contains("CARGO_MANIFEST_DIR"), "{problem}");
}

#[tokio::test]
async fn a_nested_skill_md_is_a_file_of_its_skill_and_unknown_text_is_text_plain() {
    let folder = notes_folder();
    folder.write(
        "notes/inner/SKILL.md",
        "---\nname: inner\ndescription: d\n---\n",
    );
    folder.write("notes/Makefile", "all:\n");
    folder.write("notes/data.bin", [0xff, 0xfe]);
    // A file beside the skills at any level above them is not served and not an error.
    folder.write("README.md", "top");
    folder.write("acme/README.md", "prefix");
    folder.write(
        "acme/billing/SKILL.md",
        "---\nname: billing\ndescription: d\n---\n",
    );
    let client = TestClient::new(folder_server(&folder));
    let skills = client.request("skills/list", json!({})).await;
    let uris: Vec<&Value> = skills["result"]["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|skill| &skill["uri"])
        .collect();
    assert_eq!(
        uris,
        ["skill://acme/billing/SKILL.md", "skill://notes/SKILL.md"]
    );
    for (uri, mime_type) in [
        ("skill://notes/inner/SKILL.md", "text/markdown"),
        ("skill://notes/Makefile", "text/plain"),
        ("skill://notes/data.bin", "application/octet-stream"),
    ] {
        let read = client.request("resources/read", json!({"uri": uri})).await;
        assert_eq!(
            read["result"]["contents"][0]["mimeType"], mime_type,
            "{uri}: {read}"
        );
    }
}

#[test]
fn a_bad_file_built_in_code_names_the_line_that_gave_it() {
    let (skill, line) = (release_notes().file("../escape.md", "x"), line!());
    let (file, problem) = problem_of(Server::new("skills", "1.0.0").skill(skill));
    assert_eq!(file, format!("tests/tests/served/skills.rs:{line}"));
    assert!(problem.contains("not a path inside the skill"), "{problem}");
    let text = Server::new("skills", "1.0.0")
        .skill(release_notes().file("../escape.md", "x"))
        .check()
        .expect_err("refused")
        .to_string();
    assert!(
        text.starts_with("skill at tests/tests/served/skills.rs:"),
        "{text}"
    );
}

#[tokio::test]
async fn a_skills_files_cannot_be_removed_nor_joined_at_run_time() {
    use mcp_toolbelt::resource::Resource;

    let server = Server::new("skills", "1.0.0").skill(release_notes());
    let resources = server.resources();
    assert!(!resources.remove("skill://release-notes/SKILL.md"));
    assert!(!resources.remove("skill://release-notes/templates/NOTES.md"));
    for uri in [
        "skill://release-notes/extra.md",
        "skill://release-notes",
        "skill://release-notes/{path}",
        "skill://{name}/SKILL.md",
    ] {
        let resource = Resource::new(uri, "x", |_| async { "x" }).expect("a resource");
        let refused = resources.add(resource).expect_err(uri);
        assert!(
            matches!(refused, RegistryError::InvalidResource { .. })
                && refused.to_string().contains("skill://release-notes"),
            "{uri}: {refused}"
        );
    }
    // Beside the skill, and a skill of another name sharing its first letters: fine.
    for uri in ["skill://release-notes-2/x.md", "notes://1"] {
        let resource = Resource::new(uri, "x", |_| async { "x" }).expect("a resource");
        resources.add(resource).expect(uri);
    }
    let client = TestClient::new(server);
    let read = client
        .request(
            "resources/read",
            json!({"uri": "skill://release-notes/SKILL.md"}),
        )
        .await;
    assert!(read["result"]["contents"][0]["text"].is_string(), "{read}");
}

#[test]
fn a_skill_whose_root_is_inside_anothers_stops_the_server_naming_both() {
    let folder = Folder::new();
    let inner = folder.write(
        "acme/billing/SKILL.md",
        "---\nname: billing\ndescription: d\n---\n",
    );
    let (file, field, problem) = refused(|| {
        Server::new("skills", "1.0.0")
            .skills_dir(folder.path())
            .skill(Skill::new("---\nname: acme\ndescription: d\n---\n"))
    });
    assert!(file.contains("tests/tests/served/skills.rs:"), "{file}");
    assert_eq!(field, None);
    assert!(
        problem.contains("skill://acme/billing")
            && problem.contains(&inner.display().to_string())
            && problem.contains("prefix"),
        "{problem}"
    );
}

#[tokio::test]
async fn every_listed_file_reads_as_its_listed_size_and_digest_percent_encoded_names_too() {
    use base64::Engine as _;
    use sha2::{Digest as _, Sha256};

    let folder = skills_folder();
    folder.write("note-taking/references/my notes#1.md", "spaced");
    let client = TestClient::new(server(&folder));
    for (_, params) in both_eras(&json!({})) {
        let listed = client.request("skills/list", params.clone()).await;
        let skills = listed["result"]["skills"].as_array().expect("skills");
        let files: Vec<&Value> = skills
            .iter()
            .flat_map(|skill| skill["resources"].as_array().expect("files"))
            .collect();
        assert_eq!(files.len(), 7, "six files and the spaced one: {files:?}");
        assert!(
            files
                .iter()
                .any(|file| file["uri"] == "skill://note-taking/references/my%20notes%231.md"),
            "{files:?}"
        );
        for file in files {
            let mut read_params = params.clone();
            read_params["uri"] = file["uri"].clone();
            let read = client.request("resources/read", read_params).await;
            let contents = &read["result"]["contents"][0];
            assert_eq!(contents["uri"], file["uri"], "{read}");
            let bytes = match (contents["text"].as_str(), contents["blob"].as_str()) {
                (Some(text), None) => text.as_bytes().to_vec(),
                (None, Some(blob)) => base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .expect("base64"),
                _ => panic!("text or blob: {read}"),
            };
            let digest = Sha256::digest(&bytes)
                .iter()
                .fold(String::new(), |hex, byte| hex + &format!("{byte:02x}"));
            assert_eq!(file["size"], bytes.len(), "{file}");
            assert_eq!(file["digest"], format!("sha256:{digest}"), "{file}");
        }
    }
    let directory = client
        .request(
            "resources/directory/read",
            json!({"uri": "skill://note-taking/references"}),
        )
        .await;
    assert_eq!(
        directory["result"]["resources"][1]["uri"],
        "skill://note-taking/references/my%20notes%231.md",
        "{directory}"
    );
}

#[test]
fn every_problem_of_a_skill_is_reported_at_once() {
    // A name that is no skill name, a path that leaves the skill, a file given twice: three
    // problems, each named, in one start-up error.
    let skill = Skill::new("---\nname: Release_Notes\ndescription: d\n---\n")
        .file("../escape.md", "x")
        .file("notes.md", "a")
        .file("notes.md", "b");
    let error = Server::new("skills", "1.0.0")
        .skill(skill)
        .check()
        .expect_err("refused");
    let Error::Registry(RegistryError::Several(problems)) = &error else {
        panic!("every problem, not the first: {error}");
    };
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(texts[0].contains("not a skill name"), "{texts:#?}");
    assert!(
        texts[1].contains("not a path inside the skill"),
        "{texts:#?}"
    );
    assert!(texts[2].contains("second file at `notes.md`"), "{texts:#?}");
}
