//! The client's address, as the rate limits count a caller without a token: the connection's
//! peer (`ConnectInfo`, which `serve.rs` gives every request, as axum's
//! `into_make_service_with_connect_info` does), or, when that peer is a proxy named by
//! `HttpConfig::trust_proxy`, the address it says it forwarded (`X-Forwarded-For`, read from
//! the right: the first address that is not a trusted proxy). Never the header of an
//! untrusted peer, which anyone can write.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::{Extensions, HeaderMap};
use ipnet::IpNet;

/// The header a proxy names the client in.
const FORWARDED_FOR: &str = "x-forwarded-for";

/// The client's address: the peer's, or the one a trusted proxy forwarded. `None` when the
/// request came through no socket `serve.rs` or axum knows of (an app's own server).
pub(super) fn address(
    extensions: &Extensions,
    headers: &HeaderMap,
    trusted: &[IpNet],
) -> Option<IpAddr> {
    let peer = extensions.get::<ConnectInfo<SocketAddr>>()?.0.ip();
    Some(forwarded(peer, headers, trusted))
}

/// Walks back from `peer` through the proxies that `trusted` names: each trusted hop's
/// `X-Forwarded-For` entry before it is taken, until an address no trusted proxy has (the
/// client), or an entry that is no address (the last trusted hop is then the client).
fn forwarded(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |address: &IpAddr| {
        let address = address.to_canonical();
        trusted.iter().any(|net| net.contains(&address))
    };
    if !is_trusted(&peer) {
        return peer;
    }
    // Every header of the name, in order, is one list.
    let hops: Vec<&str> = headers
        .get_all(FORWARDED_FOR)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Some(address) = parse_hop(hop) else {
            break;
        };
        client = address;
        if !is_trusted(&address) {
            break;
        }
    }
    client
}

/// One hop as proxies write it: an address, with a port or in brackets at times.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
        .or_else(|| {
            hop.strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|inner| inner.parse().ok())
        })
}

/// `text` as the proxies to trust: CIDRs (`10.0.0.0/8`, `::1/128`) or lone addresses, separated
/// by commas. `Err` names the one that is neither.
pub(crate) fn parse_proxies(text: &str) -> Result<Vec<IpNet>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.parse::<IpNet>()
                .or_else(|_| part.parse::<IpAddr>().map(IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| {
                    format!(
                        "`{part}` is no CIDR; write an address or a network, e.g. 10.0.0.0/8, 127.0.0.1 or fd00::/8 (several separated by commas)"
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(forwarded: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in forwarded {
            headers.append(FORWARDED_FOR, value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let trusted = parse_proxies("10.0.0.0/8").unwrap();
        let headers = with(&["203.0.113.9"]);
        assert_eq!(
            forwarded(ip("127.0.0.1"), &headers, &trusted),
            ip("127.0.0.1")
        );
        assert_eq!(forwarded(ip("127.0.0.1"), &headers, &[]), ip("127.0.0.1"));
    }

    #[test]
    fn a_trusted_proxy_names_the_client_read_from_the_right() {
        let trusted = parse_proxies("10.0.0.0/8, 127.0.0.1").unwrap();
        // A client may write any address first; the proxies append what they saw.
        let headers = with(&["1.1.1.1, 203.0.113.9", "10.1.2.3"]);
        assert_eq!(
            forwarded(ip("127.0.0.1"), &headers, &trusted),
            ip("203.0.113.9")
        );
        assert_eq!(
            forwarded(ip("127.0.0.1"), &with(&["[2001:db8::1]:4711"]), &trusted),
            ip("2001:db8::1")
        );
        // Garbage stops the walk at the last trusted hop.
        assert_eq!(
            forwarded(ip("127.0.0.1"), &with(&["203.0.113.9, nonsense"]), &trusted),
            ip("127.0.0.1")
        );
        // No header: the proxy itself.
        assert_eq!(
            forwarded(ip("127.0.0.1"), &HeaderMap::new(), &trusted),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn proxies_are_cidrs_or_addresses_and_mistakes_are_named() {
        let nets = parse_proxies("10.0.0.0/8,127.0.0.1,::1,fd00::/8").unwrap();
        assert_eq!(nets.len(), 4);
        let error = parse_proxies("10.0.0.0/8,proxy.local").unwrap_err();
        assert!(error.contains("`proxy.local` is no CIDR"), "{error}");
    }
}
