//! The stdio framing: one JSON-RPC message a line, each way. Reading bounds a line's length (a
//! longer one is discarded whole, up to its newline, and reported); writing puts each message
//! on one line and flushes once per burst, not once per message. The [`Backlog`] of answers
//! not yet written is what the reader waits on when the client does not read.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncBufRead, AsyncBufReadExt as _, AsyncWrite, AsyncWriteExt as _};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::jsonrpc::{Method, Outgoing, OutgoingReceiver};
use crate::protocol::Room;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// A whole line, without its newline.
    Complete(&'a [u8]),
    /// A line longer than the limit: it was discarded.
    TooLong,
    /// The input ended.
    End,
}

/// Reads lines of at most `max` bytes from a buffered input.
pub(crate) struct LineReader<R> {
    input: R,
    line: Vec<u8>,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub(crate) fn new(input: R, max: usize) -> Self {
        Self {
            input,
            line: Vec::new(),
            max,
        }
    }

    /// The next line. A last line without a newline still counts.
    pub(crate) async fn next_line(&mut self) -> io::Result<Line<'_>> {
        self.line.clear();
        let mut too_long = false;
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                return Ok(
                    match (too_long || self.line.len() > self.max, self.line.is_empty()) {
                        (true, _) => Line::TooLong,
                        (false, true) => Line::End,
                        (false, false) => Line::Complete(&self.line),
                    },
                );
            }
            let (chunk, used, done) = match available.iter().position(|&byte| byte == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            if !too_long {
                // One byte more than the limit may be held: a CRLF line's `\r`, which does
                // not count (checked when the line ends).
                if self.line.len() + chunk.len() > self.max.saturating_add(1) {
                    too_long = true;
                    self.line.clear();
                } else {
                    self.line.extend_from_slice(chunk);
                }
            }
            self.input.consume(used);
            if done {
                let content = self.line.strip_suffix(b"\r").unwrap_or(&self.line).len();
                return Ok(if too_long || content > self.max {
                    Line::TooLong
                } else {
                    Line::Complete(&self.line)
                });
            }
        }
    }
}

impl<R: tokio::io::AsyncRead> LineReader<tokio::io::BufReader<R>> {
    /// Whether a whole line is buffered: the next line can be read without waiting.
    pub(crate) fn has_line(&self) -> bool {
        self.input.buffer().contains(&b'\n')
    }
}

/// Appends `message` and its newline to `buffer`.
pub(crate) fn encode(message: &Outgoing, buffer: &mut Vec<u8>) -> io::Result<()> {
    serde_json::to_writer(&mut *buffer, message)?;
    buffer.push(b'\n');
    Ok(())
}

/// The most bytes gathered into one write: a tool that floods notifications cannot hold back
/// the writes (and grow the buffer) for as long as it keeps sending.
const MAX_BURST_BYTES: usize = 64 * 1024;

/// What the reader knows of the messages not yet written: how many answers (responses and
/// requests to the client, what reading caused) wait, kept by the writer and counted once a
/// burst is taken from the queue; when that falls below the limit; and whether nothing more
/// can be. Notifications are not counted: a tool that floods them never stops the reading.
#[derive(Default)]
pub(crate) struct Backlog {
    queued: AtomicUsize,
    /// Notified when `queued` falls below the limit.
    room: Notify,
    /// Cancelled once nothing more can be written (the client closed its end, or writing failed).
    closed: CancellationToken,
}

impl Backlog {
    /// Waits until fewer than `max` answers wait to be written.
    pub(crate) async fn room_for(&self, max: usize) {
        loop {
            let room = self.room.notified();
            let mut room = std::pin::pin!(room);
            room.as_mut().enable();
            if self.queued.load(Ordering::Acquire) < max || self.closed.is_cancelled() {
                return;
            }
            room.await;
        }
    }

    /// Resolves once nothing more can be written.
    pub(crate) async fn closed(&self) {
        self.closed.cancelled().await;
    }

    fn close(&self) {
        self.closed.cancel();
        self.room.notify_waiters();
    }
}

/// Writes every message as one line, the messages waiting (up to [`MAX_BURST_BYTES`]) together,
/// then flushes once. While a write waits (the client is not reading) it goes on taking
/// messages, so that `backlog` counts every answer; notifications have a bound of their own,
/// `max_queued` too: past it progress and log notifications are dropped (and the drop logged)
/// until the client reads again, so a tool that reports progress without end can neither grow
/// the queue nor stop the reading. A client that closed its end of the output has left: that
/// ends the writing, and is no error. Ends when every sender is gone or the output is; either
/// way the backlog is closed. The changes listeners send are bounded by `room`, whose places
/// are given back as they are taken into a burst.
pub(crate) async fn write_messages(
    mut messages: OutgoingReceiver,
    backlog: &Backlog,
    max_queued: usize,
    room: Room,
    output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    let written = Writer {
        room,
        queue: VecDeque::new(),
        buffer: Vec::new(),
        written: 0,
        answers: 0,
        notifications: 0,
        dropped: 0,
        max_queued,
    }
    .run(&mut messages, backlog, output)
    .await;
    messages.close();
    backlog.close();
    written
}

/// The writer's state: messages taken but not yet encoded, and the burst being written.
struct Writer {
    /// Where the listeners' changes take their places.
    room: Room,
    queue: VecDeque<Outgoing>,
    buffer: Vec<u8>,
    /// How much of `buffer` is written.
    written: usize,
    /// The answers in `queue`: what the reader waits on.
    answers: usize,
    /// The notifications in `queue`.
    notifications: usize,
    /// Notifications dropped since their count was last under `max_queued`.
    dropped: u64,
    max_queued: usize,
}

impl Writer {
    async fn run(
        &mut self,
        messages: &mut OutgoingReceiver,
        backlog: &Backlog,
        mut output: impl AsyncWrite + Unpin,
    ) -> io::Result<()> {
        let mut open = true;
        loop {
            // Everything sent so far is taken, so that what waits is counted and, past the
            // limit, progress is dropped here rather than kept in the channel.
            while let Ok(message) = messages.try_recv() {
                self.take(message);
            }
            let idle = self.written == self.buffer.len() && !self.next_burst()?;
            // Counted once the burst is taken from the queue, so the reader never waits on a
            // count that is already out of date.
            self.publish(backlog);
            if idle {
                // Nothing to write: wait for a message, or the last sender to go.
                match messages.recv().await {
                    Some(message) => self.take(message),
                    None => return Ok(()),
                }
                continue;
            }
            tokio::select! {
                biased;
                result = output.write(&self.buffer[self.written..]) => match result {
                    Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                    Ok(count) => {
                        self.written += count;
                        if self.written == self.buffer.len()
                            && let Err(error) = output.flush().await
                        {
                            return gone(error);
                        }
                    }
                    Err(error) => return gone(error),
                },
                message = messages.recv(), if open => match message {
                    Some(message) => self.take(message),
                    None => open = false,
                },
            }
        }
    }

    /// Tells the reader how many answers wait, waking it when that falls below the limit.
    fn publish(&self, backlog: &Backlog) {
        let waiting = self.answers;
        let before = backlog.queued.swap(waiting, Ordering::AcqRel);
        if before >= self.max_queued && waiting < self.max_queued {
            backlog.room.notify_waiters();
        }
    }

    /// Encodes the next burst; `false` when nothing waits.
    fn next_burst(&mut self) -> io::Result<bool> {
        self.buffer.clear();
        self.written = 0;
        while self.buffer.len() < MAX_BURST_BYTES
            && let Some(message) = self.queue.pop_front()
        {
            match message {
                Outgoing::Notification(_) => self.notifications -= 1,
                _ => self.answers -= 1,
            }
            self.room.written(&message);
            encode(&message, &mut self.buffer)?;
        }
        if self.dropped > 0 && self.notifications < self.max_queued {
            tracing::warn!(
                dropped = self.dropped,
                "the client reads its output again; progress and log notifications were dropped meanwhile"
            );
            self.dropped = 0;
        }
        Ok(!self.buffer.is_empty())
    }

    /// Queues `message`, or drops it when `max_queued` notifications wait already and it is only
    /// progress or a log (the other notifications are kept: withdrawn questions are few, and
    /// the changes listeners send are bounded by their room).
    fn take(&mut self, message: Outgoing) {
        let Outgoing::Notification(notification) = &message else {
            self.answers += 1;
            return self.queue.push_back(message);
        };
        let droppable = matches!(notification.method, Method::Progress | Method::Log);
        if droppable && self.notifications >= self.max_queued {
            if self.dropped == 0 {
                tracing::warn!(
                    "the client reads no output; progress and log notifications are dropped until it does"
                );
            }
            self.dropped += 1;
            return;
        }
        self.notifications += 1;
        self.queue.push_back(message);
    }
}

/// A broken pipe is a client that left: the end of writing, no error.
fn gone(error: io::Error) -> io::Result<()> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        tracing::debug!("the client closed its input; nothing more is written");
        Ok(())
    } else {
        Err(error)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::io::BufReader;

    use super::*;
    use crate::jsonrpc::{Notification, Response, outgoing_channel};

    /// Every line of `input` read through a buffer of `capacity` bytes, so that lines cross
    /// buffer boundaries.
    async fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<Result<String, &'static str>> {
        let mut reader = LineReader::new(BufReader::with_capacity(capacity, input), max);
        let mut lines = Vec::new();
        loop {
            match reader.next_line().await.unwrap() {
                Line::Complete(line) => lines.push(Ok(String::from_utf8_lossy(line).into_owned())),
                Line::TooLong => lines.push(Err("too long")),
                Line::End => return lines,
            }
        }
    }

    #[tokio::test]
    async fn lines_are_split_at_newlines_across_buffer_boundaries() {
        for capacity in [1, 3, 64] {
            let read = lines(b"{\"a\":1}\n\n{\"b\":2}\nlast", 100, capacity).await;
            assert_eq!(
                read,
                [
                    Ok("{\"a\":1}".into()),
                    Ok(String::new()),
                    Ok("{\"b\":2}".into()),
                    Ok("last".into())
                ],
                "capacity {capacity}"
            );
        }
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_discarded_whole_and_reading_goes_on() {
        for capacity in [2, 5, 64] {
            let read = lines(b"12345\n123456\nok\n1234567", 5, capacity).await;
            assert_eq!(
                read,
                [
                    Ok("12345".into()),
                    Err("too long"),
                    Ok("ok".into()),
                    Err("too long")
                ],
                "capacity {capacity}"
            );
        }
    }

    #[tokio::test]
    async fn the_carriage_return_of_a_crlf_line_does_not_count() {
        for capacity in [2, 64] {
            let read = lines(b"12345\r\n123456\r\n12345\r", 5, capacity).await;
            assert_eq!(
                read,
                [Ok("12345\r".into()), Err("too long"), Err("too long")],
                "capacity {capacity}"
            );
        }
    }

    #[tokio::test]
    async fn an_empty_input_ends_at_once() {
        assert!(lines(b"", 10, 4).await.is_empty());
    }

    #[tokio::test]
    async fn each_message_is_one_line() {
        let (sender, receiver) = outgoing_channel();
        sender
            .unbounded_send(Outgoing::Response(Box::new(Response::success(
                crate::jsonrpc::Id::from(1),
                json!({"a": "x\ny"}),
            ))))
            .unwrap();
        sender
            .unbounded_send(Outgoing::Notification(Box::new(
                Notification::list_changed(Method::ToolsListChanged),
            )))
            .unwrap();
        drop(sender);
        let mut output = Vec::new();
        write_messages(
            receiver,
            &Backlog::default(),
            16,
            Room::new(16),
            &mut output,
        )
        .await
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        assert_eq!(
            text,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"x\\ny\"}}\n\
             {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n"
        );
    }
}
