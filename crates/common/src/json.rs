//! Reading JSON that arrives as bytes: answers of the service and records read back from the
//! store.

use serde::Deserialize;

/// `bytes` read as JSON into `T`, by serde_json's rules and with its errors. The bytes are
/// checked to be UTF-8 once, as a whole, and then read as text; `serde_json::from_slice`
/// checks each string on its own, member names included, and that was a tenth of the CPU of
/// reading stored search answers back (issue 39). Bytes that are not UTF-8 are read as bytes,
/// so that serde_json's error says where.
///
/// # Errors
/// serde_json's: not JSON, not UTF-8 within a string, or not the shape of `T`.
pub fn from_json_bytes<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::from_json_bytes;
    use serde_json::Value;

    #[test]
    fn reads_as_serde_json_reads_bytes_errors_included() {
        let cases: [&[u8]; 6] = [
            r#"{"name":"Zoë \u00e9","n":[1,2.5,-3e2],"x":null}"#.as_bytes(),
            "{\"city\":\"Zürich\"}".as_bytes(),
            b"{\"name\":\"bad \xff byte\"}",
            b"{\"name\": 1,}",
            b"[1, 2",
            b"",
        ];
        for bytes in cases {
            let ours = from_json_bytes::<Value>(bytes).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(bytes).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{}", String::from_utf8_lossy(bytes));
        }
        assert!(from_json_bytes::<Value>(b"{\"a\":\"\xc3\"}").is_err());
    }
}
