//! [`Server::run`]: the ready-made entry point of a server binary. It reads the process
//! arguments, and it alone installs a logger (to stderr): a library never sets the global
//! `tracing` subscriber behind its application's back.

use std::io::{self, IsTerminal as _, Write as _};
#[cfg(feature = "http")]
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use crate::error::Error;
use crate::server::Server;
use crate::{host_config, lint};

/// What the arguments ask for.
#[derive(Debug, PartialEq)]
enum Command<'a> {
    Stdio,
    ListTools,
    Help,
    Http(HttpOptions<'a>),
    Lint(LintOptions<'a>),
}

/// What `--lint` checks against and how it reports.
#[derive(Debug, Default, PartialEq)]
struct LintOptions<'a> {
    /// `--profile NAME` (repeatable); none means every profile.
    profiles: Vec<&'a str>,
    /// `--format json`.
    json: bool,
    /// `--verbose`: the notes too (what hosts do with the tools as they are).
    verbose: bool,
}

/// What `--http` serves with: its address and the flags that go with it.
#[derive(Debug, Default, PartialEq)]
struct HttpOptions<'a> {
    address: &'a str,
    /// `--allow-host`, then `MCP_ALLOWED_HOSTS`.
    hosts: Vec<String>,
    /// `--allow-origin`, then `MCP_ALLOWED_ORIGINS`.
    origins: Vec<String>,
    /// `--stateless`, or `MCP_STATELESS`.
    stateless: bool,
    /// `--request-state-key-file PATH` (else `MCP_REQUEST_STATE_KEY`, read where it is used, so
    /// that the key is held nowhere else).
    request_state_key_file: Option<&'a str>,
    /// `--redis URL`, then `MCP_REDIS_URL`.
    redis: Option<String>,
    /// `--resource URL`, then `MCP_RESOURCE`: the bearer-auth metadata's `resource`, the URL
    /// clients use (the audience of `--oauth-issuer`'s tokens).
    resource: Option<String>,
    /// `--oauth-issuer URL`, then `MCP_OAUTH_ISSUER`: tokens verified by this server
    /// (`HttpConfig::oauth`).
    oauth_issuer: Option<String>,
    /// `--trust-proxy CIDR,...` (repeatable), then `MCP_TRUST_PROXY`: the proxies whose
    /// `X-Forwarded-For` names the client (`HttpConfig::trust_proxy`).
    proxies: Vec<String>,
}

/// `--rate-limit N/UNIT` (anywhere among the arguments; the last one given), else
/// `MCP_RATE_LIMIT`: the server's limit per principal ([`Server::rate_limit`]), for every way
/// of serving.
fn take_rate_limit<'a>(arguments: &[&'a str]) -> Result<(Option<&'a str>, Vec<&'a str>), String> {
    let mut limit = None;
    let mut rest = Vec::with_capacity(arguments.len());
    let mut arguments = arguments.iter();
    while let Some(&argument) = arguments.next() {
        if argument != "--rate-limit" {
            rest.push(argument);
            continue;
        }
        limit = Some(
            arguments
                .next()
                .copied()
                .ok_or("--rate-limit needs a limit: --rate-limit 600/min")?,
        );
    }
    Ok((limit, rest))
}

/// The server with the limit `--rate-limit` gave, else `MCP_RATE_LIMIT` (empty counts as
/// unset); `Err` says what to write.
fn with_rate_limit(
    server: Server,
    flag: Option<&str>,
    variable: impl Fn(&str) -> Option<String>,
) -> Result<Server, String> {
    let (text, source) = match flag {
        Some(text) => (text.to_owned(), "--rate-limit"),
        None => match variable("MCP_RATE_LIMIT").filter(|value| !value.trim().is_empty()) {
            Some(text) => (text.trim().to_owned(), "MCP_RATE_LIMIT"),
            None => return Ok(server),
        },
    };
    let limit: crate::RateLimit = text
        .parse()
        .map_err(|error| format!("{source} {text}: {error}"))?;
    Ok(server.rate_limit(limit))
}

/// `--only-tags a,b` and `--without-tags c` (each repeatable, anywhere among the arguments),
/// then `MCP_ONLY_TAGS` and `MCP_WITHOUT_TAGS`: what the server serves, added to what its code
/// chose ([`Server::only_tags`], [`Server::without_tags`]), for every command.
#[derive(Debug, Default, PartialEq)]
struct TagOptions {
    only: Vec<String>,
    without: Vec<String>,
}

impl TagOptions {
    /// The tag flags, and the arguments without them.
    fn take<'a>(arguments: &[&'a str]) -> Result<(Self, Vec<&'a str>), String> {
        let mut options = Self::default();
        let mut rest = Vec::with_capacity(arguments.len());
        let mut arguments = arguments.iter();
        while let Some(&argument) = arguments.next() {
            let list = match argument {
                "--only-tags" => &mut options.only,
                "--without-tags" => &mut options.without,
                _ => {
                    rest.push(argument);
                    continue;
                }
            };
            let tags = arguments
                .next()
                .map(|value| comma_list(value))
                .unwrap_or_default();
            if tags.is_empty() {
                return Err(format!(
                    "{argument} needs tags, a comma between: {argument} admin,beta"
                ));
            }
            list.extend(tags);
        }
        Ok((options, rest))
    }

    /// Adds `MCP_ONLY_TAGS` and `MCP_WITHOUT_TAGS` (comma-separated; empty counts as unset).
    fn with_environment(mut self, variable: impl Fn(&str) -> Option<String>) -> Self {
        let list = |name: &str| {
            variable(name)
                .map(|value| comma_list(&value))
                .unwrap_or_default()
        };
        self.only.extend(list("MCP_ONLY_TAGS"));
        self.without.extend(list("MCP_WITHOUT_TAGS"));
        self
    }

    /// The server, serving what these options choose.
    fn apply(self, server: Server) -> Server {
        let server = if self.only.is_empty() {
            server
        } else {
            server.only_tags(self.only)
        };
        if self.without.is_empty() {
            server
        } else {
            server.without_tags(self.without)
        }
    }
}

/// The items of a comma-separated value, trimmed, the empty ones left out.
fn comma_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Command<'_> {
    /// `Err` says what is wrong with the arguments.
    fn parse<'a>(arguments: &[&'a str]) -> Result<Command<'a>, String> {
        match arguments {
            [] => return Ok(Command::Stdio),
            ["--list-tools"] => return Ok(Command::ListTools),
            ["--help" | "-h"] => return Ok(Command::Help),
            ["--lint", rest @ ..] => return LintOptions::parse(rest).map(Command::Lint),
            _ => {}
        }
        let mut options = HttpOptions::default();
        let mut address = None;
        let mut rest = arguments.iter();
        while let Some(&flag) = rest.next() {
            let mut value = || {
                rest.next()
                    .copied()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match flag {
                "--http" => address = Some(value()?),
                "--allow-host" => options.hosts.push(value()?.to_owned()),
                "--allow-origin" => options.origins.push(value()?.to_owned()),
                "--stateless" => options.stateless = true,
                "--request-state-key-file" => options.request_state_key_file = Some(value()?),
                "--redis" => options.redis = Some(value()?.to_owned()),
                "--resource" => options.resource = Some(value()?.to_owned()),
                "--oauth-issuer" => options.oauth_issuer = Some(value()?.to_owned()),
                "--trust-proxy" => options.proxies.push(value()?.to_owned()),
                other => return Err(format!("unexpected argument {other:?}")),
            }
        }
        options.address = address.ok_or(
            "--allow-host, --allow-origin, --stateless, --request-state-key-file, --redis, \
             --resource, --oauth-issuer and --trust-proxy go with --http ADDR",
        )?;
        Ok(Command::Http(options))
    }
}

impl<'a> LintOptions<'a> {
    /// The flags after `--lint`.
    fn parse(arguments: &[&'a str]) -> Result<Self, String> {
        let mut options = Self::default();
        let mut rest = arguments.iter();
        while let Some(&flag) = rest.next() {
            if flag == "--verbose" {
                options.verbose = true;
                continue;
            }
            let value = rest.next().copied();
            match (flag, value) {
                ("--profile", Some(name)) => options.profiles.push(name),
                ("--format", Some("json")) => options.json = true,
                ("--format", Some("text")) => options.json = false,
                ("--format", Some(other)) => {
                    return Err(format!("--format {other}: write text or json"));
                }
                ("--profile" | "--format", None) => return Err(format!("{flag} needs a value")),
                (other, _) => return Err(format!("unexpected argument {other:?} after --lint")),
            }
        }
        Ok(options)
    }
}

impl HttpOptions<'_> {
    /// Adds what the environment says (for containers, where flags are awkward):
    /// `MCP_ALLOWED_HOSTS` and `MCP_ALLOWED_ORIGINS` (comma-separated), `MCP_STATELESS`
    /// (`1` or `true`); `MCP_REDIS_URL`, `MCP_RESOURCE` and `MCP_OAUTH_ISSUER` when their flags
    /// were not given.
    fn with_environment(mut self, variable: impl Fn(&str) -> Option<String>) -> Self {
        let list = |name: &str| -> Vec<String> {
            variable(name)
                .map(|value| comma_list(&value))
                .unwrap_or_default()
        };
        self.hosts.extend(list("MCP_ALLOWED_HOSTS"));
        self.origins.extend(list("MCP_ALLOWED_ORIGINS"));
        if let Some(proxies) = variable("MCP_TRUST_PROXY").filter(|value| !value.trim().is_empty())
        {
            self.proxies.push(proxies);
        }
        let set = |name: &str| variable(name).filter(|value| !value.trim().is_empty());
        if self.redis.is_none() {
            self.redis = set("MCP_REDIS_URL");
        }
        if self.resource.is_none() {
            self.resource = set("MCP_RESOURCE");
        }
        if self.oauth_issuer.is_none() {
            self.oauth_issuer = set("MCP_OAUTH_ISSUER");
        }
        self.stateless |= variable("MCP_STATELESS").is_some_and(|value| {
            matches!(
                value.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes"
            )
        });
        self
    }
}

impl Server {
    /// Reads the process arguments: none → stdio; `--http ADDR` → Streamable HTTP (with
    /// `--allow-host NAME`, `--allow-origin ORIGIN` (each repeatable), `--stateless` and
    /// `--request-state-key-file PATH`, or the variables `MCP_ALLOWED_HOSTS`,
    /// `MCP_ALLOWED_ORIGINS`, `MCP_STATELESS`, `MCP_REQUEST_STATE_KEY`; with the `oauth`
    /// feature, `--oauth-issuer URL` or `MCP_OAUTH_ISSUER`: tokens verified by the server,
    /// `HttpConfig::oauth`, for the resource `--resource URL` or
    /// `MCP_RESOURCE`, by default `http://{--http address}/mcp`); `--list-tools` →
    /// print the `tools/list` result as JSON and exit; `--lint [--profile NAME]...
    /// [--format json] [--verbose]` → check the tools against host profiles ([`crate::lint`]),
    /// print the report, exit 1 on an error; `--print-config HOST` (with the flags the host
    /// should start the server with, or `--http ADDR …` for the URL of a running one) → print
    /// what adds this server to `claude-desktop`, `claude-code`, `vscode`, `cursor` or
    /// `inspector`, in that host's format; `--help`. With any of them, `--only-tags a,b` and
    /// `--without-tags c` (each repeatable; or `MCP_ONLY_TAGS`, `MCP_WITHOUT_TAGS`) add to the
    /// server's selection ([`Server::only_tags`], [`Server::without_tags`]): what it serves,
    /// lists (`--list-tools`) and lints (`--lint`). Serving either way, `--rate-limit N/UNIT`
    /// (or `MCP_RATE_LIMIT`) sets [`Server::rate_limit`]; with `--http`, `--trust-proxy CIDR`
    /// (repeatable or comma-separated; or `MCP_TRUST_PROXY`) names the proxies whose
    /// `X-Forwarded-For` is taken as the client's address.
    ///
    /// Unless the application installed a `tracing` subscriber of its own, this installs one that
    /// writes to stderr (stdout belongs to the protocol), filtered by `RUST_LOG`; unset, it writes
    /// events at `info` and above without span context, and creates no request span (what costs
    /// per call). The `serve_*` methods install none.
    ///
    /// The `requestState` key (see [`Server::previous_request_state_key`]) is 32 bytes in base64, the
    /// file's or the variable's whole text; during a rotation a second key follows it (on the
    /// file's second line; in the variable after a comma or a newline), the current one first.
    /// An empty `MCP_REQUEST_STATE_KEY` counts as unset; one that is not UTF-8 is an error.
    ///
    /// An error (tools that cannot be served, bad arguments, bad key material, an address in
    /// use) is printed to stderr as `Error: ` and its `Display` text, every problem listed, and
    /// the result is [`ExitCode::FAILURE`] (status 1), as for a `--lint` that finds an error;
    /// otherwise [`ExitCode::SUCCESS`]. Return it from `main`
    /// (`async fn main() -> ExitCode`): the process exits after `main`'s destructors ran (a
    /// `tracing-appender` guard flushes), where `std::process::exit` would skip them.
    pub async fn run(self) -> ExitCode {
        match self.run_command().await {
            Ok(code) => code,
            Err(error) => {
                let _ = writeln!(io::stderr().lock(), "Error: {error}");
                ExitCode::FAILURE
            }
        }
    }

    /// [`Server::run`], its errors returned. The tools are checked before anything else.
    async fn run_command(self) -> Result<ExitCode, Error> {
        let arguments = utf8_arguments(std::env::args_os().skip(1))
            .map_err(|problem| Error::Arguments(format!("{problem}\n\n{}", usage(&self))))?;
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        let parsed = take_print_config(&arguments).and_then(|(host, arguments)| {
            let (tags, rest) = TagOptions::take(&arguments)?;
            let (rate_limit, rest) = take_rate_limit(&rest)?;
            Command::parse(&rest).map(|command| (host, command, (tags, rate_limit), arguments))
        });
        let (print_config, command, (tags, rate_limit), arguments) = match parsed {
            Ok(parsed) => parsed,
            Err(problem) => {
                return Err(Error::Arguments(format!("{problem}\n\n{}", usage(&self))));
            }
        };
        let server = tags
            .with_environment(|name| std::env::var(name).ok())
            .apply(self);
        let server = with_rate_limit(server, rate_limit, |name| std::env::var(name).ok())
            .map_err(Error::Arguments)?;
        if command != Command::Help {
            server.check()?;
        }
        if let Some(host) = print_config {
            print_config_for(&server, host, command, &arguments)?;
            return Ok(ExitCode::SUCCESS);
        }
        match command {
            Command::Stdio => {
                init_stderr_logging();
                if io::stdin().is_terminal() {
                    greet(&server);
                }
                server.serve_stdio().await?;
            }
            Command::ListTools => {
                let listing = serde_json::to_string_pretty(&server.tools().list())
                    .map_err(io::Error::other)?;
                writeln!(io::stdout().lock(), "{listing}")?;
            }
            Command::Help => write!(io::stdout().lock(), "{}", usage(&server))?,
            Command::Lint(options) => return lint(&server, &options),
            Command::Http(options) => {
                let options = options.with_environment(|name| std::env::var(name).ok());
                let keys = state_key_variable()
                    .and_then(|variable| {
                        request_state_keys(options.request_state_key_file, variable.as_deref())
                    })
                    .map_err(Error::RequestStateKey)?;
                let source = match options.request_state_key_file {
                    Some(path) => format!("--request-state-key-file {path}"),
                    None => "MCP_REQUEST_STATE_KEY".to_owned(),
                };
                let server = match keys {
                    Some((current, Some(previous))) => server
                        .request_state_key(current)
                        .previous_request_state_key(previous)
                        .request_state_key_from(source),
                    Some((current, None)) => server
                        .request_state_key(current)
                        .request_state_key_from(source),
                    None => server,
                };
                serve_http(server, options).await?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// `--print-config HOST` (anywhere among the arguments) and the arguments without it.
fn take_print_config<'a>(arguments: &[&'a str]) -> Result<(Option<&'a str>, Vec<&'a str>), String> {
    let Some(at) = arguments
        .iter()
        .position(|argument| *argument == "--print-config")
    else {
        return Ok((None, arguments.to_vec()));
    };
    let host = arguments.get(at + 1).copied().ok_or_else(|| {
        format!(
            "--print-config needs a host: {}",
            host_config::HOSTS.join(", ")
        )
    })?;
    let mut rest = arguments.to_vec();
    rest.drain(at..=at + 1);
    Ok((Some(host), rest))
}

/// `--print-config HOST`: the snippet that adds this binary, started with the other arguments,
/// to `host`, on stdout; where it goes, on stderr.
fn print_config_for(
    server: &Server,
    host: &str,
    command: Command<'_>,
    arguments: &[&str],
) -> Result<(), Error> {
    let invalid = Error::Arguments;
    let executable = std::env::current_exe()?;
    let executable = executable.to_str().ok_or_else(|| {
        invalid(format!(
            "--print-config: the path of this binary is not UTF-8: {}",
            executable.display()
        ))
    })?;
    let reach = match command {
        Command::Stdio => host_config::Reach::Stdio {
            command: executable,
            args: arguments,
        },
        Command::Http(options) => {
            let options = options.with_environment(|name| std::env::var(name).ok());
            host_config::Reach::Http {
                url: host_config::url(options.address, &options.hosts).map_err(invalid)?,
                bearer: server.wants_bearer_token() || options.oauth_issuer.is_some(),
            }
        }
        _ => {
            return Err(invalid(
                "--print-config goes with the flags that serve: none (stdio), or --http ADDR and its flags"
                    .into(),
            ));
        }
    };
    let snippet = host_config::snippet(host, server.name(), &reach).map_err(invalid)?;
    write!(io::stdout().lock(), "{snippet}")?;
    let mut err = io::stderr().lock();
    writeln!(err, "{}", host_config::placement(host, &reach))?;
    if let host_config::Reach::Http { bearer, .. } = reach {
        if bearer {
            writeln!(err, "{}", host_config::token_note(host))?;
        }
        writeln!(
            err,
            "and keep the server running: {}",
            host_config::line(executable, arguments)
        )?;
    }
    Ok(())
}

/// `MCP_REQUEST_STATE_KEY`: `None` when unset or empty (as the other `MCP_*` variables), an
/// error when it is not UTF-8 (rather than serving with a key drawn at start).
fn state_key_variable() -> Result<Option<String>, String> {
    match std::env::var("MCP_REQUEST_STATE_KEY") {
        Ok(value) if value.trim().is_empty() => Ok(None),
        Ok(value) => Ok(Some(value)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(
            "MCP_REQUEST_STATE_KEY is not UTF-8; a key is 32 random bytes in base64 \
             (`openssl rand -base64 32`)"
                .into(),
        ),
    }
}

/// The most a key file is read: two keys take under 100 bytes (a FIFO or `/dev/zero` given by
/// mistake must not hang the start or fill the memory).
const MAX_KEY_FILE_BYTES: u64 = 4096;

/// The text of the key file at `path`, at most [`MAX_KEY_FILE_BYTES`].
fn read_key_file(path: &str) -> io::Result<String> {
    use std::io::Read as _;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_KEY_FILE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_KEY_FILE_BYTES {
        return Err(io::Error::other(format!(
            "longer than {MAX_KEY_FILE_BYTES} bytes"
        )));
    }
    Ok(text)
}

/// The current `requestState` key and the other one it opens, from `--request-state-key-file`'s
/// `file` or `MCP_REQUEST_STATE_KEY`'s `variable`; `None` when neither is given (a key is then
/// drawn at start). `Err` says what is wrong, never what the key is.
fn request_state_keys(
    file: Option<&str>,
    variable: Option<&str>,
) -> Result<Option<crate::ask::seal::StateKeys>, String> {
    let (text, source) = match (file, variable) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => {
            return Err(
                "the requestState key is given twice: write --request-state-key-file \
                 or MCP_REQUEST_STATE_KEY, not both"
                    .into(),
            );
        }
        (Some(path), None) => {
            let source = format!("--request-state-key-file {path}");
            let text = read_key_file(path)
                .map_err(|error| format!("{source}: cannot be read ({error})"))?;
            (text, source)
        }
        (None, Some(value)) => (value.to_owned(), "MCP_REQUEST_STATE_KEY".to_owned()),
    };
    crate::ask::seal::parse_state_keys(&text)
        .map(Some)
        .map_err(|problem| format!("{source}: {problem}"))
}

/// `--lint`: the report on stdout; an error in it is [`ExitCode::FAILURE`], said on stderr.
fn lint(server: &Server, options: &LintOptions<'_>) -> Result<ExitCode, Error> {
    let profiles = if options.profiles.is_empty() {
        lint::default_profiles()
    } else {
        options
            .profiles
            .iter()
            .map(|name| lint::profile(name))
            .collect::<Result<_, _>>()
            .map_err(|unknown| Error::Arguments(unknown.to_string()))?
    };
    let mut report = lint::lint(server.name(), &server.tools().list().tools, &profiles);
    lint::add_icons(
        &mut report,
        (server.name(), server.icons()),
        &server.resource_icons(),
        &profiles,
    );
    // `--oauth-issuer` is `--http`'s flag: for the lint, its variable says the server would
    // check tokens.
    if !server.wants_bearer_token() && std::env::var_os("MCP_OAUTH_ISSUER").is_none() {
        lint::add_scopes(&mut report, &server.scoped_items(), &profiles);
    }
    let mut out = io::stdout().lock();
    if options.json {
        let json = serde_json::to_string_pretty(&report).map_err(io::Error::other)?;
        writeln!(out, "{json}")?;
    } else if options.verbose {
        write!(out, "{report:#}")?;
    } else {
        write!(out, "{report}")?;
    }
    if report.has_errors() {
        let _ = writeln!(
            io::stderr().lock(),
            "Error: the tools break rules of the hosts above (--lint)"
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "http")]
async fn serve_http(server: Server, options: HttpOptions<'_>) -> Result<(), Error> {
    let address = http_address(options.address)?;
    init_stderr_logging();
    #[cfg(not(feature = "redis"))]
    if options.redis.is_some() {
        return Err(Error::Arguments(
            "--redis (or MCP_REDIS_URL): this server was built without the `redis` feature of \
             mcp-toolbelt (mcp-toolbelt = { features = [\"redis\"] })"
                .into(),
        ));
    }
    let server = with_oauth(server, options.oauth_issuer.as_deref())?;
    let proxies =
        crate::transport::http::parse_proxies(&options.proxies.join(",")).map_err(|problem| {
            Error::Arguments(format!("--trust-proxy (or MCP_TRUST_PROXY): {problem}"))
        })?;
    if options.resource.is_some() && !server.wants_bearer_token() {
        return Err(Error::Arguments(
            "--resource names the URL in the bearer-auth metadata: this server has no \
             HttpConfig::bearer_auth and no --oauth-issuer"
                .into(),
        ));
    }
    let server = server.update_http_config(|config| {
        let config = config
            .allow_hosts(options.hosts)
            .allow_origins(options.origins)
            .trusting(proxies);
        let config = if options.stateless {
            config.stateless(true)
        } else {
            config
        };
        #[cfg(feature = "redis")]
        let config = match options.redis {
            Some(url) => config.redis(url),
            None => config,
        };
        match options.resource {
            Some(url) => config.resource_url(url, true),
            None => config,
        }
    });
    if !address.ip().is_loopback() && server.serves_only_localhost() {
        tracing::warn!(
            %address,
            "only requests for localhost are answered (403 otherwise): name this server's host \
             with --allow-host NAME (or MCP_ALLOWED_HOSTS=NAME,...)"
        );
    }
    server.serve_http(address).await
}

/// The server with `--oauth-issuer URL` (or `MCP_OAUTH_ISSUER`): its tokens verified here,
/// opaque ones introspected when `MCP_OAUTH_CLIENT_ID` and `MCP_OAUTH_CLIENT_SECRET` name this
/// server's client at the issuer. `Err` for an issuer that is neither `https://` nor `http://`
/// on loopback, or a build without the `oauth` feature.
#[cfg(feature = "http")]
fn with_oauth(server: Server, issuer: Option<&str>) -> Result<Server, Error> {
    let Some(issuer) = issuer else {
        return Ok(server);
    };
    #[cfg(feature = "oauth")]
    {
        crate::transport::http::check_issuer(issuer).map_err(|why| {
            Error::Arguments(format!("--oauth-issuer (or MCP_OAUTH_ISSUER): {why}"))
        })?;
        let variable = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        let client = variable("MCP_OAUTH_CLIENT_ID").zip(variable("MCP_OAUTH_CLIENT_SECRET"));
        Ok(server.update_http_config(|config| match client {
            Some((id, secret)) => config.oauth_introspection(issuer, id, secret),
            None => config.oauth(issuer),
        }))
    }
    #[cfg(not(feature = "oauth"))]
    {
        let _ = (server, issuer);
        Err(Error::Arguments(
            "--oauth-issuer (or MCP_OAUTH_ISSUER): this server was built without the `oauth` \
             feature of mcp-toolbelt (mcp-toolbelt = { features = [\"oauth\"] })"
                .into(),
        ))
    }
}

#[cfg(not(feature = "http"))]
async fn serve_http(_server: Server, _options: HttpOptions<'_>) -> Result<(), Error> {
    let refusal = Error::Arguments(
        "--http: this server was built without the `http` feature of mcp-toolbelt".into(),
    );
    std::future::ready(Err(refusal)).await
}

/// Sends `tracing` output to stderr, as [`stderr_logger`] builds it from `RUST_LOG`, unless the
/// application installed a subscriber of its own.
fn init_stderr_logging() {
    let rust_log = std::env::var("RUST_LOG").ok();
    let _ = tracing::subscriber::set_global_default(stderr_logger(rust_log.as_deref(), io::stderr));
}

/// The logger of [`Server::run`]. `RUST_LOG` set to valid directives is obeyed as written,
/// request spans included; invalid ones are said to be ignored. Unset, events at `info` and above are written without span context, through a
/// filter that enables no span at all: the request span is then never created, where the `fmt`
/// layer would format its fields into a `String` on every request (about 5 µs a call) for events
/// that, at `info`, seldom come. The events that matter name what they concern themselves
/// (`tool`, `uri`, `method`).
fn stderr_logger<W>(rust_log: Option<&str>, writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;

    let asked = match rust_log
        .map(str::trim)
        .filter(|directives| !directives.is_empty())
    {
        None => None,
        Some(directives) => match tracing_subscriber::EnvFilter::try_new(directives) {
            Ok(filter) => Some(filter),
            // Said once, where the logs go, rather than silently logging something else.
            Err(error) => {
                let _ = writeln!(
                    writer.make_writer(),
                    "RUST_LOG={directives:?} is ignored ({error}): logging events at info"
                );
                None
            }
        },
    };
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(false);
    let layer = match asked {
        Some(filter) => layer.with_filter(filter).boxed(),
        None => layer
            .with_filter(
                tracing_subscriber::filter::filter_fn(|metadata| {
                    metadata.is_event() && *metadata.level() <= tracing::Level::INFO
                })
                // So that `debug!` and `trace!` stop at tracing's level check.
                .with_max_level_hint(tracing::level_filters::LevelFilter::INFO),
            )
            .boxed(),
    };
    tracing_subscriber::registry().with(layer)
}

/// The arguments as text, or which one is not UTF-8 (shown with `\u{FFFD}` for its bad bytes).
fn utf8_arguments(
    arguments: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Vec<String>, String> {
    arguments
        .into_iter()
        .map(|argument| {
            argument.into_string().map_err(|argument| {
                format!("argument {:?} is not UTF-8", argument.to_string_lossy())
            })
        })
        .collect()
}

fn program(server: &Server) -> String {
    std::env::args_os().next().map_or_else(
        || server.name().to_owned(),
        |program| program.to_string_lossy().into_owned(),
    )
}

fn usage(server: &Server) -> String {
    let program = program(server);
    let http = if cfg!(feature = "http") {
        format!(
            "  {program} --http ADDR     serve Streamable HTTP at ADDR (path /mcp): a port (8080, on\n                            127.0.0.1), localhost:PORT, or IP:PORT (0.0.0.0:8080 for all)\n    \
             --allow-host NAME       also answer requests for NAME (the name clients use; repeatable)\n    \
             --allow-origin ORIGIN   also serve browser pages from ORIGIN (repeatable)\n    \
             --resource URL          the URL clients use, in the bearer-auth metadata\n                            \
             (else http://HOST:PORT/mcp, HOST the first --allow-host)\n    \
             --oauth-issuer URL      verify OAuth access tokens of this issuer (JWTs by its JWKS;\n                            \
             opaque ones introspected as MCP_OAUTH_CLIENT_ID, MCP_OAUTH_CLIENT_SECRET)\n    \
             --stateless             keep no sessions (any replica answers any request)\n    \
             --redis URL             share sessions, streams, tasks and notifications with the\n                            \
             other replicas through this Redis (redis://host:6379)\n    \
             --request-state-key-file PATH\n                            \
             the key sealing 2026-07-28 requestState: give replicas the same one\n                            \
             (32 bytes in base64; a second key after it: also opened, the previous or next)\n                            \
             (in MCP_REQUEST_STATE_KEY: CURRENT,PREVIOUS, a comma or a newline between)\n                            \
             (or MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS, MCP_STATELESS=1, MCP_REQUEST_STATE_KEY,\n                            \
             MCP_REDIS_URL, MCP_RESOURCE, MCP_OAUTH_ISSUER)\n    \
             --trust-proxy CIDR,...  take the client's address from X-Forwarded-For when the\n                            \
             connection comes from these proxies (repeatable; or\n                            \
             MCP_TRUST_PROXY; none is trusted by default)\n"
        )
    } else {
        String::new()
    };
    format!(
        "{name} {version}: an MCP server with {count} tools\n\n\
         Usage:\n  {program}                 serve over stdio (what MCP hosts launch)\n\
         {http}  \
         {program} --list-tools    print the tools/list result as JSON\n  \
         {program} --lint [--profile NAME]... [--format json] [--verbose]\n                            \
         check the tools against what hosts accept; exit 1 on an error\n                            \
         (profiles: {profiles}; the strict ones only when named;\n                            \
         --verbose adds notes: what hosts do with the tools as they are)\n  \
         {program} --print-config HOST [--http ADDR ...]\n                            \
         print what adds this server to HOST ({hosts})\n  \
         {program} --help          show this\n\n\
         With any of them:\n  \
         --only-tags TAG,...       serve only the tools, resources and prompts tagged with one\n                            \
         of these (repeatable; or MCP_ONLY_TAGS)\n  \
         --without-tags TAG,...    serve none tagged with one of these (repeatable; or\n                            \
         MCP_WITHOUT_TAGS); it wins over --only-tags\n  \
         --rate-limit N/UNIT       at most N requests per UNIT (s, min or h) from each client,\n                            \
         bursts up to N; past it -32029 (HTTP 429, Retry-After)\n                            \
         (or MCP_RATE_LIMIT)\n",
        name = server.name(),
        version = server.version(),
        count = server.tool_count(),
        profiles = lint::all_profiles()
            .iter()
            .map(|profile| profile.name())
            .collect::<Vec<_>>()
            .join(", "),
        hosts = host_config::HOSTS.join(", "),
    )
}

fn greet(server: &Server) {
    let program = program(server);
    eprintln!(
        "{} {}: an MCP server with {} tools, speaking MCP over stdin/stdout.\n\
         It is meant to be launched by an MCP host. To connect one:\n  \
         Claude Code: claude mcp add {} -- {program}\n  \
         Inspector:   npx @modelcontextprotocol/inspector {program}\n\
         Run `{program} --help` for more; press Ctrl-D to quit.",
        server.name(),
        server.version(),
        server.tool_count(),
        server.name(),
    );
}

/// The address `--http` names: `PORT` and `localhost:PORT` mean 127.0.0.1 (local only, the safe
/// default), otherwise `IP:PORT`.
#[cfg(feature = "http")]
fn http_address(address: &str) -> Result<SocketAddr, Error> {
    let invalid = |problem: String| {
        Error::Arguments(format!(
            "--http {address}: {problem} (write a port, localhost:PORT or IP:PORT)"
        ))
    };
    let port = address
        .strip_prefix("localhost:")
        .unwrap_or(address)
        .parse::<u16>();
    match port {
        Ok(port) => Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port))),
        Err(_) => address.parse().map_err(|e| invalid(format!("{e}"))),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::ask::seal::parse_state_keys;

    /// What the logger of `run()` writes for an `info` and a `debug` event inside a request span,
    /// and whether that span exists at all.
    fn logged(rust_log: Option<&str>) -> (String, bool) {
        struct Captured(Arc<Mutex<Vec<u8>>>);
        impl io::Write for Captured {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = {
            let buffer = Arc::clone(&buffer);
            move || Captured(Arc::clone(&buffer))
        };
        let span_exists =
            tracing::subscriber::with_default(stderr_logger(rust_log, writer), || {
                let span = tracing::info_span!("mcp.request", mcp.method.name = "tools/call");
                let _entered = span.enter();
                tracing::info!(tool = "echo", "an info event");
                tracing::debug!("a debug event");
                !span.is_disabled()
            });
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        (text, span_exists)
    }

    /// One test, so that no other test's subscriber runs the same callsites at the same time
    /// (tracing caches per callsite whether a subscriber wants it).
    #[test]
    fn the_default_logger_writes_info_events_and_creates_no_span_unless_rust_log_asks() {
        for rust_log in [None, Some(""), Some("  "), Some("not a [directive")] {
            let (text, span_exists) = logged(rust_log);
            assert!(
                text.contains("an info event tool=\"echo\""),
                "{rust_log:?}: {text}"
            );
            assert!(!text.contains("a debug event"), "{rust_log:?}: {text}");
            assert!(!text.contains("mcp.request"), "{rust_log:?}: {text}");
            assert!(
                !span_exists,
                "{rust_log:?}: the request span is never created"
            );
        }
        let (text, _) = logged(Some("not a [directive"));
        assert!(
            text.starts_with("RUST_LOG=\"not a [directive\" is ignored ("),
            "{text}"
        );

        let (text, span_exists) = logged(Some("debug"));
        assert!(span_exists);
        assert!(
            text.contains("mcp.request{mcp.method.name=\"tools/call\"}"),
            "{text}"
        );
        assert!(text.contains("an info event"), "{text}");
        assert!(text.contains("a debug event"), "{text}");
        let (text, span_exists) = logged(Some("warn"));
        assert!(!span_exists);
        assert_eq!(text, "");
    }

    #[test]
    fn commands() {
        assert_eq!(Command::parse(&[]), Ok(Command::Stdio));
        assert_eq!(Command::parse(&["--list-tools"]), Ok(Command::ListTools));
        assert_eq!(Command::parse(&["-h"]), Ok(Command::Help));
        assert_eq!(
            Command::parse(&["--lint"]),
            Ok(Command::Lint(LintOptions::default()))
        );
        assert_eq!(
            Command::parse(&[
                "--lint",
                "--profile",
                "cursor",
                "--format",
                "json",
                "--verbose",
                "--profile",
                "gemini"
            ]),
            Ok(Command::Lint(LintOptions {
                profiles: vec!["cursor", "gemini"],
                json: true,
                verbose: true,
            }))
        );
        assert_eq!(
            Command::parse(&["--lint", "--format", "xml"]),
            Err("--format xml: write text or json".into())
        );
        assert_eq!(
            Command::parse(&["--lint", "--profile"]),
            Err("--profile needs a value".into())
        );
        let http = |address| HttpOptions {
            address,
            ..HttpOptions::default()
        };
        assert_eq!(
            Command::parse(&["--http", "8080"]),
            Ok(Command::Http(http("8080")))
        );
        assert_eq!(
            Command::parse(&["--http"]),
            Err("--http needs a value".into())
        );
        assert_eq!(
            Command::parse(&["--stdio", "x"]),
            Err("unexpected argument \"--stdio\"".into())
        );
        let deployed = Command::parse(&[
            "--allow-host",
            "mcp.internal",
            "--http",
            "0.0.0.0:80",
            "--stateless",
            "--allow-origin",
            "https://app.example.com",
            "--allow-host",
            "mcp",
            "--request-state-key-file",
            "/run/secrets/mcp-state-key",
            "--redis",
            "redis://redis:6379",
            "--trust-proxy",
            "10.0.0.0/8",
        ]);
        assert_eq!(
            deployed,
            Ok(Command::Http(HttpOptions {
                address: "0.0.0.0:80",
                hosts: vec!["mcp.internal".into(), "mcp".into()],
                origins: vec!["https://app.example.com".into()],
                stateless: true,
                request_state_key_file: Some("/run/secrets/mcp-state-key"),
                redis: Some("redis://redis:6379".into()),
                resource: None,
                oauth_issuer: None,
                proxies: vec!["10.0.0.0/8".into()],
            }))
        );
        assert!(
            Command::parse(&["--stateless"])
                .unwrap_err()
                .contains("go with --http ADDR")
        );
    }

    #[test]
    fn the_rate_limit_is_taken_anywhere_and_the_variable_is_its_fallback() {
        let (limit, rest) =
            take_rate_limit(&["--http", "8080", "--rate-limit", "5/s", "--stateless"]).unwrap();
        assert_eq!(
            (limit, rest),
            (Some("5/s"), vec!["--http", "8080", "--stateless"])
        );
        assert_eq!(
            take_rate_limit(&["--rate-limit"]).unwrap_err(),
            "--rate-limit needs a limit: --rate-limit 600/min"
        );
        let server = || Server::new("t", "0");
        let variable = |value: &'static str| {
            move |name: &str| (name == "MCP_RATE_LIMIT").then(|| value.to_owned())
        };
        assert!(with_rate_limit(server(), None, variable("")).is_ok());
        assert!(with_rate_limit(server(), Some("5/s"), variable("nonsense")).is_ok());
        let Err(problem) = with_rate_limit(server(), None, variable("10/day")) else {
            panic!("10/day is no limit");
        };
        assert!(
            problem.starts_with("MCP_RATE_LIMIT 10/day: invalid rate limit: `day` is not a unit"),
            "{problem}"
        );
    }

    #[test]
    fn tag_flags_are_taken_anywhere_and_the_environment_adds_to_them() {
        let (tags, rest) = TagOptions::take(&[
            "--only-tags",
            "beta, public",
            "--list-tools",
            "--without-tags",
            "admin",
            "--only-tags",
            "x",
        ])
        .unwrap();
        assert_eq!(rest, ["--list-tools"]);
        assert_eq!(tags.only, ["beta", "public", "x"]);
        assert_eq!(tags.without, ["admin"]);
        let tags = tags.with_environment(|name| match name {
            "MCP_ONLY_TAGS" => Some("ops,".to_owned()),
            "MCP_WITHOUT_TAGS" => Some(String::new()),
            _ => None,
        });
        assert_eq!(tags.only, ["beta", "public", "x", "ops"]);
        assert_eq!(tags.without, ["admin"]);
        assert_eq!(
            TagOptions::take(&["--http", "8080", "--only-tags"]).unwrap_err(),
            "--only-tags needs tags, a comma between: --only-tags admin,beta"
        );
        assert_eq!(
            TagOptions::take(&["--without-tags", " , "]).unwrap_err(),
            "--without-tags needs tags, a comma between: --without-tags admin,beta"
        );
        let (tags, rest) = TagOptions::take(&["--http", "8080"]).unwrap();
        assert_eq!(
            (tags, rest),
            (TagOptions::default(), vec!["--http", "8080"])
        );
    }

    #[test]
    fn the_environment_adds_hosts_origins_and_statelessness() {
        let environment = |name: &str| match name {
            "MCP_ALLOWED_HOSTS" => Some("a.internal, b.internal,".to_owned()),
            "MCP_ALLOWED_ORIGINS" => Some("https://app.example.com".to_owned()),
            "MCP_STATELESS" => Some("TRUE".to_owned()),
            "MCP_REDIS_URL" => Some("redis://redis:6379".to_owned()),
            _ => None,
        };
        let options = HttpOptions {
            address: "80",
            hosts: vec!["flag.internal".into()],
            ..HttpOptions::default()
        }
        .with_environment(environment);
        assert_eq!(options.hosts, ["flag.internal", "a.internal", "b.internal"]);
        assert_eq!(options.origins, ["https://app.example.com"]);
        assert!(options.stateless);
        assert_eq!(options.redis.as_deref(), Some("redis://redis:6379"));
        let flagged = HttpOptions {
            redis: Some("redis://flag:6379".into()),
            ..HttpOptions::default()
        }
        .with_environment(environment);
        assert_eq!(
            flagged.redis.as_deref(),
            Some("redis://flag:6379"),
            "the flag wins"
        );
        let nothing = HttpOptions::default().with_environment(|_| None);
        assert_eq!(nothing, HttpOptions::default());
    }

    #[test]
    fn the_oauth_issuer_and_resource_come_from_flags_then_the_environment() {
        let environment = |name: &str| match name {
            "MCP_OAUTH_ISSUER" => Some("https://env-issuer".to_owned()),
            "MCP_RESOURCE" => Some("https://env/mcp".to_owned()),
            _ => None,
        };
        let Ok(Command::Http(flagged)) = Command::parse(&[
            "--http",
            "80",
            "--oauth-issuer",
            "https://flag-issuer",
            "--resource",
            "https://flag/mcp",
        ]) else {
            panic!("--oauth-issuer and --resource are --http's flags")
        };
        let flagged = flagged.with_environment(environment);
        assert_eq!(flagged.oauth_issuer.as_deref(), Some("https://flag-issuer"));
        assert_eq!(flagged.resource.as_deref(), Some("https://flag/mcp"));
        let from_environment = HttpOptions::default().with_environment(environment);
        assert_eq!(
            from_environment.oauth_issuer.as_deref(),
            Some("https://env-issuer")
        );
        assert_eq!(
            from_environment.resource.as_deref(),
            Some("https://env/mcp")
        );
    }

    #[test]
    fn request_state_keys_are_read_from_one_place_and_refused_clearly() {
        let current = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=";
        let previous = "CAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAg";
        assert_eq!(request_state_keys(None, None), Ok(None));
        assert_eq!(
            request_state_keys(None, Some(current)),
            Ok(Some(([7; 32], None)))
        );
        assert_eq!(
            parse_state_keys(&format!("{current}\n{previous}\n")),
            Ok(([7; 32], Some([8; 32])))
        );
        assert_eq!(
            parse_state_keys(&format!(" {current} , {previous}")),
            Ok(([7; 32], Some([8; 32])))
        );
        let refused = |text: &str| parse_state_keys(text).unwrap_err();
        assert_eq!(
            refused("  \n"),
            "no key; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
        );
        assert_eq!(
            refused("c2VjcmV0"),
            "the current key is 6 bytes; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
        );
        assert_eq!(
            refused(&format!("{current} not*base64")),
            "the previous key is not base64; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
        );
        assert!(refused(&format!("{current} {current} {current}")).starts_with("3 keys;"));
        assert_eq!(
            refused("not a key"),
            "not base64; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
        );
        assert!(
            request_state_keys(Some("key"), Some(current))
                .unwrap_err()
                .contains("not both")
        );
        let missing = request_state_keys(Some("/nonexistent/key"), None).unwrap_err();
        assert!(
            missing.starts_with("--request-state-key-file /nonexistent/key: cannot be read ("),
            "{missing}"
        );
        assert_eq!(
            request_state_keys(None, Some(" , ")).unwrap_err(),
            "MCP_REQUEST_STATE_KEY: no key; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn http_addresses() {
        let local = |port| SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        assert_eq!(http_address("8080").unwrap(), local(8080));
        assert_eq!(http_address("localhost:3001").unwrap(), local(3001));
        assert_eq!(
            http_address("0.0.0.0:80").unwrap(),
            "0.0.0.0:80".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            http_address("[::1]:9").unwrap(),
            "[::1]:9".parse::<SocketAddr>().unwrap()
        );
        let error = http_address("example.com:80").unwrap_err().to_string();
        assert!(
            error.contains("write a port, localhost:PORT or IP:PORT"),
            "{error}"
        );
        assert!(http_address("70000").is_err());
    }
}
