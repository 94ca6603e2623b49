//! [`ProtocolVersion`]: the MCP revisions we speak, and what each one can carry.

use std::fmt;

/// One MCP protocol revision. Ordered by date, so `version >= ProtocolVersion::V2025_06_18`
/// reads as "has what 2025-06-18 introduced".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ProtocolVersion {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    V2025_11_25,
    V2026_07_28,
}

impl ProtocolVersion {
    /// The legacy (`initialize`) versions, oldest first.
    pub(crate) const LEGACY: [Self; 4] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
    ];

    /// The modern (per-request `_meta`) versions.
    pub(crate) const MODERN: [Self; 1] = [Self::V2026_07_28];

    /// What `initialize` answers when it does not know the client's version, and what a stdio
    /// client that never initialized is assumed to speak.
    pub(crate) const LATEST_LEGACY: Self = Self::V2025_11_25;

    /// What a legacy HTTP client that sends no `MCP-Protocol-Version` header is assumed to speak
    /// (the transport's rule).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) const HTTP_DEFAULT: Self = Self::V2025_03_26;

    /// The version named `text`, if we speak it.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        [Self::LEGACY.as_slice(), Self::MODERN.as_slice()]
            .concat()
            .into_iter()
            .find(|version| version.as_str() == text)
    }

    /// The legacy version named `text`, if we speak it.
    pub(crate) fn parse_legacy(text: &str) -> Option<Self> {
        Self::parse(text).filter(|version| !version.is_modern())
    }

    /// The version as it is written on the wire.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether requests of this version stand alone (`_meta`), without `initialize`.
    pub(crate) fn is_modern(self) -> bool {
        self >= Self::V2026_07_28
    }

    /// Whether `text` names a modern-era version: one we speak, or any later date (which a
    /// client uses to find out what we speak, and gets `-32022`).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn claims_modern(text: &str) -> bool {
        text >= Self::V2026_07_28.as_str()
    }

    /// JSON-RPC batches exist in 2025-03-26 alone.
    pub(crate) fn has_batches(self) -> bool {
        self == Self::V2025_03_26
    }

    /// Tool annotations, audio content and progress messages came with 2025-03-26.
    pub(crate) fn has_annotations(self) -> bool {
        self >= Self::V2025_03_26
    }

    /// Titles, `outputSchema`/`structuredContent` and resource links came with 2025-06-18.
    pub(crate) fn has_structured_content(self) -> bool {
        self >= Self::V2025_06_18
    }

    /// Icons, and the server's `description` and `websiteUrl`, came with 2025-11-25 (SEP-973).
    pub(crate) fn has_icons(self) -> bool {
        self >= Self::V2025_11_25
    }

    /// Wire strings of `versions`.
    pub(crate) fn names(versions: &[Self]) -> Vec<&'static str> {
        versions.iter().map(|version| version.as_str()).collect()
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_round_trip_and_order_by_date() {
        for version in ProtocolVersion::LEGACY
            .into_iter()
            .chain(ProtocolVersion::MODERN)
        {
            assert_eq!(ProtocolVersion::parse(version.as_str()), Some(version));
        }
        assert!(ProtocolVersion::LEGACY.is_sorted());
        assert_eq!(ProtocolVersion::parse("2025-01-01"), None);
        assert_eq!(ProtocolVersion::parse_legacy("2026-07-28"), None);
        assert_eq!(
            ProtocolVersion::parse_legacy("2025-06-18"),
            Some(ProtocolVersion::V2025_06_18)
        );
    }

    #[test]
    fn era_rules() {
        assert!(ProtocolVersion::V2026_07_28.is_modern());
        assert!(!ProtocolVersion::LATEST_LEGACY.is_modern());
        assert!(ProtocolVersion::claims_modern("2026-07-28"));
        assert!(ProtocolVersion::claims_modern("2027-01-01"));
        assert!(!ProtocolVersion::claims_modern("2025-11-25"));
        let batches: Vec<_> = ProtocolVersion::LEGACY
            .into_iter()
            .filter(|version| version.has_batches())
            .collect();
        assert_eq!(batches, [ProtocolVersion::V2025_03_26]);
        assert!(!ProtocolVersion::V2024_11_05.has_annotations());
        assert!(ProtocolVersion::V2025_03_26.has_annotations());
        assert!(!ProtocolVersion::V2025_03_26.has_structured_content());
        assert!(!ProtocolVersion::V2025_06_18.has_icons());
        assert!(ProtocolVersion::V2025_11_25.has_icons());
        assert!(ProtocolVersion::MODERN[0].has_icons());
        assert!(ProtocolVersion::V2025_06_18.has_structured_content());
    }
}
