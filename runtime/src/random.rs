//! Random ids and hex text: one place for the ids the server mints (sessions, tasks) and the
//! bytes it writes as hex (principal keys, digests).

use std::fmt::Write;

/// `bytes` as lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// 128 bits from the operating system's cryptographic generator, as 32 hex digits; `Err` when
/// the OS cannot provide them (then no guessable id is minted instead).
pub(crate) fn id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// Whether `text` has the shape of an id [`id`] mints (32 lowercase hex digits): text a client
/// sends as one of our ids is checked with it before it becomes part of a Redis key, or is
/// looked up at all.
pub(crate) fn is_id(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_128_bits_of_hex_and_differ() {
        let (a, b) = (super::id().unwrap(), super::id().unwrap());
        assert_eq!(a.len(), 32);
        assert!(super::is_id(&a) && super::is_id(&b));
        assert!(!super::is_id(&a.to_uppercase()) && !super::is_id(&a[1..]));
        assert!(
            a.bytes()
                .all(|byte| byte.is_ascii_hexdigit() && !byte.is_ascii_uppercase())
        );
        assert_ne!(a, b);
        assert_eq!(super::hex(&[0, 0xab, 0x0f]), "00ab0f");
    }
}
