//! A DOCTYPE that only names an external DTD (`<!DOCTYPE score-partwise PUBLIC "..."
//! "http://...dtd">`, as most MusicXML files have): the document is read without fetching
//! or applying the DTD, and a note (E0107) says so. Anything a DTD could change in the
//! document as read — an internal subset (entities, attribute defaults) — stays refused
//! (E0105), as does a DOCTYPE that declares nothing at all.

use crate::xml::wf;

/// The external identifier of a DOCTYPE whose content (what stands between `<!DOCTYPE`
/// and `>`, the white space after `<!DOCTYPE` cut) is exactly a name and an external ID (XML 1.0, [28] doctypedecl without an
/// internal subset; [75] ExternalID); `None` for any other DOCTYPE.
pub(super) fn external_only(content: &str) -> Option<&str> {
    let rest = content;
    let name_end = rest.find(is_space)?;
    let mut name = rest[..name_end].chars();
    if !name.next().is_some_and(wf::is_name_start) || !name.all(wf::is_name_char) {
        return None;
    }
    let id = rest[name_end..].trim_matches(is_space);
    let (mut at, literals) = if let Some(after) = id.strip_prefix("SYSTEM") {
        (after, 1)
    } else if let Some(after) = id.strip_prefix("PUBLIC") {
        (after, 2)
    } else {
        return None;
    };
    for n in 0..literals {
        // Each literal follows white space.
        let after_space = at.trim_start_matches(is_space);
        if after_space.len() == at.len() {
            return None;
        }
        let quote = after_space.chars().next()?;
        if quote != '"' && quote != '\'' {
            return None;
        }
        let end = after_space[1..].find(quote)? + 1;
        // A public identifier holds only PubidChars ([13]).
        if literals == 2 && n == 0 && !after_space[1..end].chars().all(is_pubid_char) {
            return None;
        }
        at = &after_space[end + 1..];
    }
    at.is_empty().then_some(id)
}

fn is_pubid_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " \r\n-'()+,./:=?;!*#@$_%".contains(c)
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

#[cfg(test)]
mod tests {
    use super::external_only;

    #[test]
    fn only_a_name_and_an_external_id_are_taken() {
        let public = "score-partwise PUBLIC \"-//Recordare//DTD MusicXML 4.0 Partwise//EN\" \"http://www.musicxml.org/dtds/partwise.dtd\"";
        assert!(external_only(public).is_some());
        assert!(external_only("r SYSTEM 'r.dtd'").is_some());
        assert!(external_only("r SYSTEM 'r.dtd' ").is_some());
        for refused in [
            "r",
            "r ",
            "r [<!ENTITY a 'b'>]",
            "r SYSTEM 'r.dtd' [<!ENTITY a 'b'>]",
            "r SYSTEM",
            "r SYSTEM r.dtd",
            "r SYSTEM'r.dtd'",
            "r PUBLIC 'p'",
            "r PUBLIC 'p''s'",
            "r SYSTEM 'a' 'b'",
            "r PUBLIC 'a{b}' 'r.dtd'",
            "1r SYSTEM 'r.dtd'",
            " r SYSTEM 'r.dtd'",
        ] {
            assert!(external_only(refused).is_none(), "{refused}");
        }
    }
}
