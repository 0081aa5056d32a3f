//! Text helpers shared by the explorer's state owner, its components and its views: credits
//! formatted for a human, a request's problems in one line. They live here, not in `app`, so
//! components never import the state owner back (issue 19, "The shape").
use prospect_api::client::Endpoint;
use prospect_api::cost;
use prospect_api::types::ValidationError;

/// Credits per autocomplete call, from the team's price table (NOTES.md: 0.1).
pub fn autocomplete_cost() -> f64 {
    cost::estimate_endpoint(Endpoint::AutocompleteKeywords).standard
}

/// The problems of a request in one line: the first one, and how many more.
pub fn problems_text(problems: &[ValidationError]) -> String {
    match problems {
        [] => String::new(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (+{} more)", rest.len()),
    }
}

/// Formats credits: whole numbers without decimals, else up to two.
pub fn fmt_credits(c: f64) -> String {
    if (c - c.round()).abs() < 1e-9 {
        format!("{}", c.round() as i64)
    } else {
        let s = format!("{c:.2}");
        s.trim_end_matches('0').to_string()
    }
}

/// `s` with its first letter upper-case ("reveal" → "Reveal").
pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
