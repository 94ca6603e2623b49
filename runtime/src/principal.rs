//! [`Principal`]: who a call comes from, the one value every place that compares or seals the
//! caller uses (the legacy session's owner, HTTP's places per principal, `requestState`).

/// The caller a bearer token speaks for: the client it was issued to and the subject (`sub`) it
/// acts for. A token without a subject and a token whose subject is empty are two callers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Principal {
    client_id: String,
    subject: Option<String>,
}

impl Principal {
    /// The caller `client_id`, acting for `subject`.
    pub(crate) fn new(client_id: impl Into<String>, subject: Option<String>) -> Self {
        Self {
            client_id: client_id.into(),
            subject,
        }
    }

    /// Appends the caller, or `None` (no token), as bytes that no other caller writes: each
    /// part tagged present or absent, each text length-prefixed.
    /// The principal as an opaque text key (a task's owner): the bytes `write_bound` writes, hex.
    pub(crate) fn key(&self) -> String {
        let mut bytes = Vec::new();
        Self::write_bound(Some(self), &mut bytes);
        bytes
            .iter()
            .fold(String::with_capacity(2 * bytes.len()), |mut hex, byte| {
                let _ = std::fmt::Write::write_fmt(&mut hex, format_args!("{byte:02x}"));
                hex
            })
    }

    pub(crate) fn write_bound(principal: Option<&Self>, out: &mut Vec<u8>) {
        let Some(principal) = principal else {
            out.push(0);
            return;
        };
        out.push(1);
        write_text(&principal.client_id, out);
        match &principal.subject {
            None => out.push(0),
            Some(subject) => {
                out.push(1);
                write_text(subject, out);
            }
        }
    }
}

/// `text`, its length first.
pub(crate) fn write_text(text: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(&(text.len() as u64).to_be_bytes());
    out.extend_from_slice(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(principal: Option<&Principal>) -> Vec<u8> {
        let mut out = Vec::new();
        Principal::write_bound(principal, &mut out);
        out
    }

    #[test]
    fn no_two_callers_are_written_alike() {
        let callers = [
            None,
            Some(Principal::new("", None)),
            Some(Principal::new("", Some(String::new()))),
            Some(Principal::new("c", None)),
            Some(Principal::new("c", Some(String::new()))),
            Some(Principal::new("c\n", None)),
            Some(Principal::new("c", Some("\n".into()))),
        ];
        for (i, a) in callers.iter().enumerate() {
            for b in &callers[i + 1..] {
                assert_ne!(bound(a.as_ref()), bound(b.as_ref()), "{a:?} and {b:?}");
            }
        }
    }
}
