//! The process's stdin and stdout as async streams that stay on the reactor.
//!
//! tokio's `stdin()` and `stdout()` hand every read and every write to the blocking thread pool:
//! a thread hop (and a wake-up) per read and per write. A host that launches a server gives it
//! pipes, and a pipe can be polled like a socket. On Linux each end that is a pipe is reopened
//! through `/proc/self/fd` (a file description of its own, so the `O_NONBLOCK` it gets does not
//! leak into the process's own stdin and stdout, nor into children that inherit them) and read
//! or written on the reactor. Anything else (a terminal, a file, a socket, another OS) keeps
//! tokio's blocking streams.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The process's stdin.
pub(crate) enum Input {
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Receiver),
    Blocking(tokio::io::Stdin),
}

/// The process's stdout.
pub(crate) enum Output {
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Sender),
    Blocking(tokio::io::Stdout),
}

/// Stdin and stdout, each on the reactor when it is a pipe. Must run inside a tokio runtime
/// with IO enabled (as `#[tokio::main]` builds).
pub(crate) fn standard_streams() -> (Input, Output) {
    #[cfg(target_os = "linux")]
    {
        let input = reopen(0, false)
            .and_then(tokio::net::unix::pipe::Receiver::from_file)
            .map_or_else(|_| Input::Blocking(tokio::io::stdin()), Input::Pipe);
        let output = reopen(1, true)
            .and_then(tokio::net::unix::pipe::Sender::from_file)
            .map_or_else(|_| Output::Blocking(tokio::io::stdout()), Output::Pipe);
        (input, output)
    }
    #[cfg(not(target_os = "linux"))]
    {
        (
            Input::Blocking(tokio::io::stdin()),
            Output::Blocking(tokio::io::stdout()),
        )
    }
}

/// Opens standard stream `fd` anew, non-blocking, when it is a pipe. `O_NONBLOCK` at open also
/// keeps the open itself from waiting for the other end, as opening a pipe would.
#[cfg(target_os = "linux")]
fn reopen(fd: u8, write: bool) -> io::Result<std::fs::File> {
    use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
    let path = format!("/proc/self/fd/{fd}");
    if !std::fs::metadata(&path)?.file_type().is_fifo() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a pipe"));
    }
    std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
}

impl AsyncRead for Input {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffer: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Input::Pipe(pipe) => Pin::new(pipe).poll_read(context, buffer),
            Input::Blocking(stdin) => Pin::new(stdin).poll_read(context, buffer),
        }
    }
}

impl AsyncWrite for Output {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffer: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_write(context, buffer),
            Output::Blocking(stdout) => Pin::new(stdout).poll_write(context, buffer),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_flush(context),
            Output::Blocking(stdout) => Pin::new(stdout).poll_flush(context),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_shutdown(context),
            Output::Blocking(stdout) => Pin::new(stdout).poll_shutdown(context),
        }
    }
}
