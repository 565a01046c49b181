//! OASIS XML Catalogs (1.1), as far as schema locations need them: `<system systemId uri>`
//! and `<uri name uri>` entries map a location (an `http://` schemaLocation) to a local file.
//! Nested `<group>` elements are read through; `xml:base` is not followed (relative `uri`
//! values are relative to the catalog file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quick_xml::events::Event;

/// The entries of the catalog file `path`: location -> local file. An error names the file
/// and what is wrong.
pub fn read(path: &Path) -> Result<BTreeMap<String, PathBuf>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the catalog {shown}: {e}"))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut entries = BTreeMap::new();
    let mut r = quick_xml::Reader::from_str(&text);
    let mut root_seen = false;
    // quick-xml ends without complaint where elements are left open.
    let mut open = 0usize;
    loop {
        let position = r.buffer_position();
        let event = r
            .read_event()
            .map_err(|e| format!("{shown}: not a well-formed catalog (at byte {position}): {e}"))?;
        let e = match &event {
            Event::Start(e) => {
                open += 1;
                e
            }
            Event::Empty(e) => e,
            Event::End(_) => {
                open = open.saturating_sub(1);
                continue;
            }
            Event::Eof if open > 0 => {
                return Err(format!(
                    "{shown}: ends inside an element (not a well-formed catalog)"
                ))
            }
            Event::Eof => break,
            _ => continue,
        };
        let local = e.local_name();
        if !root_seen {
            root_seen = true;
            if local.as_ref() != b"catalog" {
                return Err(format!(
                    "{shown}: the root element is <{}>, expected <catalog> (OASIS XML Catalogs)",
                    String::from_utf8_lossy(local.as_ref())
                ));
            }
            continue;
        }
        let key = match local.as_ref() {
            b"system" => "systemId",
            b"uri" => "name",
            _ => continue,
        };
        let mut from = None;
        let mut to = None;
        for a in e.attributes() {
            let a =
                a.map_err(|err| format!("{shown}: a bad attribute at byte {position}: {err}"))?;
            let value = a
                .decode_and_unescape_value(r.decoder())
                .map_err(|err| format!("{shown}: a bad attribute value at byte {position}: {err}"))?
                .into_owned();
            match a.key.local_name().as_ref() {
                k if k == key.as_bytes() => from = Some(value),
                b"uri" => to = Some(value),
                _ => {}
            }
        }
        let (Some(from), Some(to)) = (from, to) else {
            return Err(format!(
                "{shown}: <{}> at byte {position} needs both {key} and uri",
                String::from_utf8_lossy(local.as_ref())
            ));
        };
        let to = to.strip_prefix("file://").unwrap_or(&to);
        entries.insert(from, base.join(to));
    }
    if !root_seen {
        return Err(format!("{shown}: empty, expected a <catalog>"));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_and_uri_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("catalog.xml");
        std::fs::write(
            &path,
            r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://www.w3.org/2001/xml.xsd" uri="xml.xsd"/>
  <group><uri name="http://example.com/a.xsd" uri="sub/a.xsd"/></group>
</catalog>"#,
        )
        .unwrap();
        let entries = read(&path).unwrap();
        assert_eq!(
            entries["http://www.w3.org/2001/xml.xsd"],
            dir.path().join("xml.xsd")
        );
        assert_eq!(
            entries["http://example.com/a.xsd"],
            dir.path().join("sub/a.xsd")
        );
        std::fs::write(&path, "<catalog><system uri='x'/></catalog>").unwrap();
        assert!(read(&path)
            .unwrap_err()
            .contains("needs both systemId and uri"));
        std::fs::write(&path, "<other/>").unwrap();
        assert!(read(&path).unwrap_err().contains("expected <catalog>"));
        std::fs::write(&path, "<catalog>").unwrap();
        assert!(read(&path).is_err());
    }
}
