//! Turning search responses into table rows and records into detail sections. Every string
//! that leaves this module has been through [`sanitize`].
use serde_json::Value;

use super::msg::{PageData, ResultRow};
use super::schema::Kind;
use crate::core::sanitize::sanitize;

/// Column titles of a results tab.
pub fn columns(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Companies => &[
            "name",
            "domain",
            "cc",
            "size",
            "industry",
            "year",
            "employees",
            "rel.",
        ],
        Kind::People => &[
            "name",
            "jobTitle",
            "company",
            "cc",
            "seniorities",
            "email",
            "rel.",
        ],
    }
}

/// Column widths of a results tab: short fixed columns keep their header readable, names
/// share the rest.
pub fn widths(kind: Kind) -> Vec<ratatui::layout::Constraint> {
    use ratatui::layout::Constraint::{Fill, Length};
    match kind {
        Kind::Companies => vec![
            Fill(3),
            Fill(3),
            Length(2),
            Length(11),
            Fill(2),
            Length(4),
            Length(9),
            Length(4),
        ],
        Kind::People => vec![
            Fill(3),
            Fill(4),
            Fill(3),
            Length(2),
            Fill(2),
            Length(9),
            Length(4),
        ],
    }
}

/// A scalar as display text (strings sanitized, numbers plain, arrays joined); `""` for null.
pub fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => sanitize(s),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| text(Some(x)))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", "),
        Some(o @ Value::Object(_)) => sanitize(&o.to_string()),
    }
}

fn first(v: Option<&Value>) -> String {
    match v {
        Some(Value::Array(a)) => text(a.first()),
        other => text(other),
    }
}

/// The company object of a company result item (`{company, relevance|score}`) or the item itself.
pub fn company_of(record: &Value) -> &Value {
    record
        .get("company")
        .filter(|c| c.is_object() && record.get("domain").is_none())
        .unwrap_or(record)
}

fn company_row(item: &Value) -> ResultRow {
    let c = company_of(item);
    let industry = {
        let i = first(c.get("industries"));
        if i.is_empty() {
            text(c.get("linkedinIndustry"))
        } else {
            i
        }
    };
    let rel = match item.get("relevance") {
        Some(r) if !r.is_null() => text(Some(r)),
        _ => item
            .get("score")
            .and_then(Value::as_f64)
            .map(|s| format!("{s:.2}"))
            .unwrap_or_default(),
    };
    ResultRow {
        cells: vec![
            text(c.get("name")),
            text(c.get("domain")),
            text(c.get("primaryCountry")),
            text(c.get("companySize")),
            industry,
            text(c.get("yearFounded")),
            text(c.get("employeeCountService")),
            rel,
        ],
        record: item.clone(),
    }
}

fn person_row(p: &Value) -> ResultRow {
    let company = {
        let n = text(p.get("company").and_then(|c| c.get("name")));
        if n.is_empty() {
            text(p.get("domain"))
        } else {
            n
        }
    };
    let email = match p.get("email") {
        Some(e) if e.is_object() => text(e.get("status")),
        _ => String::new(),
    };
    let title = {
        let t = text(p.get("jobTitleEnglish"));
        if t.is_empty() {
            text(p.get("jobTitle"))
        } else {
            t
        }
    };
    ResultRow {
        cells: vec![
            text(p.get("name")),
            title,
            company,
            text(p.get("country")),
            text(p.get("seniorities")),
            email,
            text(p.get("relevance")),
        ],
        record: p.clone(),
    }
}

/// Parses a search response (v2 or v3, companies or people) into a page.
pub fn page_from_response(kind: Kind, resp: &Value) -> PageData {
    let list = match kind {
        Kind::Companies => resp.get("companies"),
        Kind::People => resp.get("people"),
    };
    let rows = list
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| {
                    if kind == Kind::Companies {
                        company_row(x)
                    } else {
                        person_row(x)
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let mut notes = Vec::new();
    for key in ["missingDomains", "includeDomainsStatuses"] {
        if let Some(m) = resp.get(key).and_then(Value::as_object) {
            for (d, why) in m {
                notes.push(format!("{}: {}", sanitize(d), text(Some(why))));
            }
        }
    }
    PageData {
        rows,
        total: resp
            .get("total")
            .and_then(|t| t.as_u64().or_else(|| t.as_f64().map(|f| f.max(0.0) as u64))),
        search_after: resp
            .get("searchAfter")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        notes,
        credits_used: resp.get("creditsUsed").and_then(Value::as_f64),
    }
}

/// One section of the details pane.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Heading, e.g. `Overview`.
    pub title: &'static str,
    /// `(label, value)` lines; a value may be long (the view wraps or cuts it).
    pub lines: Vec<(String, String)>,
}

fn push(lines: &mut Vec<(String, String)>, label: &str, v: Option<&Value>) {
    let t = text(v);
    if !t.is_empty() {
        lines.push((label.to_string(), t));
    }
}

/// The sections of a company record (SPEC.md §2.3): overview, locations, industries,
/// technologies, social media, funding, headcount growth, department sizes.
pub fn company_sections(item: &Value) -> Vec<Section> {
    let c = company_of(item);
    let mut overview = Vec::new();
    for k in [
        "name",
        "legalName",
        "domain",
        "rootUrl",
        "description",
        "companySize",
        "employeeCountService",
        "employeeCountLinkedin",
        "revenue",
        "yearFounded",
        "ecommerce",
        "primaryCountry",
        "countries",
        "keywords",
        "emails",
    ] {
        push(&mut overview, k, c.get(k));
    }
    for k in ["relevance", "score"] {
        push(
            &mut overview,
            k,
            item.get(k).filter(|_| !std::ptr::eq(item, c)),
        );
    }
    for p in c
        .get("phones")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        overview.push((
            "phone".into(),
            format!("{} ({})", text(p.get("number")), text(p.get("country"))),
        ));
    }
    if let Some(w) = c.get("webTraffic").filter(|w| w.is_object()) {
        overview.push((
            "webTraffic".into(),
            format!(
                "visits {} · pageViews {} · pagesPerVisit {} · bounceRate {}",
                text(w.get("visits")),
                text(w.get("pageViews")),
                text(w.get("pagesPerVisit")),
                text(w.get("bounceRate"))
            ),
        ));
    }
    for a in c
        .get("mobileApps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        overview.push((
            "mobileApp".into(),
            format!("{} {}", text(a.get("name")), text(a.get("link"))),
        ));
    }
    let mut locations = Vec::new();
    for l in c
        .get("locations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let parts: Vec<String> = [
            "streetAddress",
            "postalCode",
            "locality",
            "region",
            "country",
        ]
        .iter()
        .map(|k| text(l.get(*k)))
        .filter(|s| !s.is_empty())
        .collect();
        let label = if l.get("primary").and_then(Value::as_bool) == Some(true) {
            "primary"
        } else {
            "office"
        };
        locations.push((label.to_string(), parts.join(", ")));
    }
    let mut industries = Vec::new();
    for k in ["industryCategories", "industries", "linkedinIndustry"] {
        push(&mut industries, k, c.get(k));
    }
    let mut tech = Vec::new();
    for k in ["technologies", "technologyCategories"] {
        push(&mut tech, k, c.get(k));
    }
    let mut social = Vec::new();
    if let Some(m) = c.get("medias").and_then(Value::as_object) {
        for (net, v) in m {
            let url = text(v.get("url"));
            let handle = text(v.get("handle"));
            let t = if url.is_empty() { handle } else { url };
            if !t.is_empty() {
                social.push((sanitize(net), t));
            }
        }
    }
    let mut funding = Vec::new();
    if let Some(f) = c.get("fundingRound").filter(|f| f.is_object()) {
        for k in ["type", "date", "moneyRaisedInUsd", "cbUrl"] {
            push(&mut funding, k, f.get(k));
        }
    }
    let mut growth = Vec::new();
    if let Some(g) = c.get("headcountGrowth").filter(|g| g.is_object()) {
        for k in ["threeMonths", "sixMonths", "twelveMonths"] {
            push(&mut growth, k, g.get(k));
        }
    }
    for d in c
        .get("headcountGrowthPerDepartment")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let g = d.get("growth");
        growth.push((
            text(d.get("department")),
            format!(
                "3m {} · 6m {} · 12m {}",
                text(g.and_then(|g| g.get("threeMonths"))),
                text(g.and_then(|g| g.get("sixMonths"))),
                text(g.and_then(|g| g.get("twelveMonths")))
            ),
        ));
    }
    let mut depts = Vec::new();
    for d in c
        .get("departmentSizes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        depts.push((text(d.get("department")), text(d.get("size"))));
    }
    vec![
        Section {
            title: "Overview",
            lines: overview,
        },
        Section {
            title: "Locations",
            lines: locations,
        },
        Section {
            title: "Industries",
            lines: industries,
        },
        Section {
            title: "Technologies",
            lines: tech,
        },
        Section {
            title: "Social media",
            lines: social,
        },
        Section {
            title: "Funding",
            lines: funding,
        },
        Section {
            title: "Headcount growth",
            lines: growth,
        },
        Section {
            title: "Department sizes",
            lines: depts,
        },
    ]
}

/// The sections of a person record (SPEC.md §2.1, §2.2): position, contact (email and phone
/// with status), experiences, about.
pub fn person_sections(p: &Value) -> Vec<Section> {
    let mut pos = Vec::new();
    for k in [
        "name",
        "jobTitle",
        "jobTitleEnglish",
        "headline",
        "seniorities",
        "departments",
        "domain",
    ] {
        push(&mut pos, k, p.get(k));
    }
    if let Some(c) = p.get("company").filter(|c| c.is_object()) {
        for k in [
            "name",
            "companySize",
            "revenue",
            "industries",
            "employeeCountService",
        ] {
            push(&mut pos, &format!("company.{k}"), c.get(k));
        }
    }
    for k in [
        "location",
        "country",
        "state",
        "linkedinUrl",
        "connectionsCount",
        "followersCount",
        "relevance",
        "updatedAt",
        "id",
    ] {
        push(&mut pos, k, p.get(k));
    }
    let mut contact = Vec::new();
    match p.get("email").filter(|e| e.is_object()) {
        Some(e) => {
            let addr = text(e.get("address"));
            contact.push((
                "email".into(),
                format!(
                    "{} [{}]",
                    if addr.is_empty() { "—".into() } else { addr },
                    text(e.get("status"))
                ),
            ));
        }
        None => contact.push(("email".into(), "not revealed".into())),
    }
    match p.get("phone").filter(|e| e.is_object()) {
        Some(ph) => {
            let nums = text(ph.get("numbers"));
            contact.push((
                "phone".into(),
                format!(
                    "{} [{}]",
                    if nums.is_empty() { "—".into() } else { nums },
                    text(ph.get("status"))
                ),
            ));
        }
        None => contact.push(("phone".into(), "not revealed".into())),
    }
    let mut exp = Vec::new();
    for e in p
        .get("experiences")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let to = text(e.get("dateTo"));
        exp.push((
            format!(
                "{}–{}",
                text(e.get("dateFrom")),
                if to.is_empty() { "now".into() } else { to }
            ),
            format!("{} @ {}", text(e.get("jobTitle")), text(e.get("domain"))),
        ));
        let d = text(e.get("description"));
        if !d.is_empty() {
            exp.push((String::new(), d));
        }
    }
    let mut about = Vec::new();
    for k in ["summary", "currentJobDescription", "skills"] {
        push(&mut about, k, p.get(k));
    }
    vec![
        Section {
            title: "Position",
            lines: pos,
        },
        Section {
            title: "Email and phone",
            lines: contact,
        },
        Section {
            title: "Experiences",
            lines: exp,
        },
        Section {
            title: "About",
            lines: about,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn company_pages_parse_v2_and_v3_and_sanitize() {
        let v3 = json!({"total": 2, "searchAfter": "abc", "companies": [
            {"company": {"name": "Acme\u{1b}[31m", "domain": "acme.com", "industries": ["Software"], "yearFounded": 1999}, "relevance": "A"}]});
        let p = page_from_response(Kind::Companies, &v3);
        assert_eq!(p.total, Some(2));
        assert_eq!(p.search_after.as_deref(), Some("abc"));
        assert_eq!(p.rows[0].cells[0], "Acme");
        assert_eq!(p.rows[0].cells[7], "A");
        let v2 = json!({"companies": [{"company": {"name": "B", "domain": "b.io"}, "score": 0.912}], "missingDomains": {"x.io": "bad content"}});
        let p = page_from_response(Kind::Companies, &v2);
        assert_eq!(p.rows[0].cells[7], "0.91");
        assert_eq!(p.notes, vec!["x.io: bad content"]);
    }

    #[test]
    fn person_sections_show_status() {
        let p = json!({"name": "Ann", "email": {"address": "ann@x.io", "status": "verified"}, "phone": null,
            "experiences": [{"dateFrom": "2020-01-01", "jobTitle": "CTO", "domain": "x.io"}]});
        let s = person_sections(&p);
        assert_eq!(s[1].lines[0].1, "ann@x.io [verified]");
        assert_eq!(s[1].lines[1].1, "not revealed");
        assert_eq!(s[2].lines[0].0, "2020-01-01–now");
    }
}
