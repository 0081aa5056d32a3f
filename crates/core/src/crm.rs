//! CRM-ready exports (issue 16, "CRM-ready export"): presets whose CSV headers are the names a
//! CRM's importer maps by itself, one row per entity deduped by the CRM's own key, and an email
//! filter that keeps unverified addresses out of an outreach list. Every front end writes them
//! through [`CrmWriter`] (the CLI's `--preset`, the explorer's export popup); cells are
//! defused like every CSV prospect writes ([`crate::export::defuse_cell`]).
//!
//! | preset | for | key (deduped) | header |
//! |---|---|---|---|
//! | `hubspot-companies` | companies | domain | [`HUBSPOT_COMPANIES`] |
//! | `hubspot-contacts` | people | email | [`HUBSPOT_CONTACTS`] |
//! | `salesforce-leads` | people | email | [`SALESFORCE_LEADS`] |
//! | `plain` | both | none | prospect's own columns |
//!
//! HubSpot dedupes companies by *Company Domain Name* and contacts by *Email*; Salesforce
//! matches leads by email. A HubSpot contact and a Salesforce lead need an email, so the
//! people presets leave out people without an address allowed by the [`EmailFilter`]; both
//! default to `verified+catchAll`.

use std::collections::HashSet;
use std::io;
use std::path::PathBuf;

use serde::Serialize;

use crate::export::{Format, Tabular, Writer};
use prospect_api::client::SearchSubject;
use prospect_api::types::{Company, LookalikePerson, Person, WireEnum};

/// A CRM layout for an export (`--preset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// HubSpot's company import: `Company Domain Name`, `Company name`, …; one row a domain.
    HubspotCompanies,
    /// HubSpot's contact import: `Email`, `First Name`, `Last Name`, `Job Title`, …; one row
    /// an email.
    HubspotContacts,
    /// Salesforce's lead import: `First Name`, `Last Name`, `Email`, `Title`, `Company`, …;
    /// one row an email.
    SalesforceLeads,
    /// prospect's own columns (the default).
    Plain,
}

/// Which email addresses a people export keeps (`--emails`), by verification status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EmailFilter {
    /// Only `verified` addresses.
    Verified,
    /// `verified` and `catchAll` addresses (the default of the outreach presets).
    #[value(name = "verified+catchAll")]
    VerifiedCatchAll,
    /// Every person, whatever their email.
    All,
}

/// HubSpot's company properties, by the labels its importer maps without help. Industry and
/// Annual Revenue are left out: HubSpot holds them as its own pick list and a number, which
/// the service's labels and ranges are not.
pub const HUBSPOT_COMPANIES: &[&str] = &[
    "Company Domain Name",
    "Company name",
    "Phone Number",
    "City",
    "State/Region",
    "Country/Region",
    "Number of Employees",
    "Year Founded",
    "LinkedIn Company Page",
    "Description",
];

/// HubSpot's contact properties, by the labels its importer maps without help.
pub const HUBSPOT_CONTACTS: &[&str] = &[
    "Email",
    "First Name",
    "Last Name",
    "Job Title",
    "Phone Number",
    "Company Name",
    "Website URL",
    "Country/Region",
];

/// Salesforce's lead fields, by the labels its Data Import Wizard maps without help
/// (`Last Name` and `Company` are required: a missing company name is its domain).
pub const SALESFORCE_LEADS: &[&str] = &[
    "First Name",
    "Last Name",
    "Email",
    "Title",
    "Company",
    "Phone",
    "Website",
    "Country",
    "Lead Source",
];

impl Preset {
    /// The rows it is for; `None` for `plain` (either).
    pub fn subject(self) -> Option<SearchSubject> {
        match self {
            Preset::HubspotCompanies => Some(SearchSubject::Companies),
            Preset::HubspotContacts | Preset::SalesforceLeads => Some(SearchSubject::People),
            Preset::Plain => None,
        }
    }

    /// The email filter when `--emails` is not given: `verified+catchAll` for the outreach
    /// presets, `all` otherwise.
    pub fn default_emails(self) -> EmailFilter {
        match self {
            Preset::HubspotContacts | Preset::SalesforceLeads => EmailFilter::VerifiedCatchAll,
            Preset::HubspotCompanies | Preset::Plain => EmailFilter::All,
        }
    }

    /// Its name as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::HubspotCompanies => "hubspot-companies",
            Preset::HubspotContacts => "hubspot-contacts",
            Preset::SalesforceLeads => "salesforce-leads",
            Preset::Plain => "plain",
        }
    }

    /// The header of `subject`'s rows.
    fn columns(self, subject: SearchSubject) -> &'static [&'static str] {
        match (self, subject) {
            (Preset::HubspotCompanies, _) => HUBSPOT_COMPANIES,
            (Preset::HubspotContacts, _) => HUBSPOT_CONTACTS,
            (Preset::SalesforceLeads, _) => SALESFORCE_LEADS,
            (Preset::Plain, SearchSubject::Companies) => crate::export::CompanyOut::columns(),
            (Preset::Plain, SearchSubject::People) => LookalikePerson::columns(),
        }
    }
}

impl EmailFilter {
    /// Whether an address of `status` (as on the wire) passes.
    pub fn allows(self, status: &str) -> bool {
        match self {
            EmailFilter::Verified => status == "verified",
            EmailFilter::VerifiedCatchAll => matches!(status, "verified" | "catchAll"),
            EmailFilter::All => true,
        }
    }

    /// How the filter is named in messages.
    pub fn describe(self) -> &'static str {
        match self {
            EmailFilter::Verified => "a verified email",
            EmailFilter::VerifiedCatchAll => "a verified or catch-all email",
            EmailFilter::All => "an email",
        }
    }
}

/// One row of a preset: its cells in the preset's column order.
#[derive(Debug, Clone, Serialize)]
pub struct CrmRow(Vec<String>);

impl Tabular for CrmRow {
    /// Unused: a [`CrmWriter`] gives the preset's columns to [`Writer::with_columns`].
    fn columns() -> &'static [&'static str] {
        &[]
    }
    fn cells(&self) -> Vec<String> {
        self.0.clone()
    }
}

/// What a [`CrmWriter`] wrote and left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CrmCounts {
    /// Rows written.
    pub written: usize,
    /// Entities left out because one with the same CRM key was written before.
    pub duplicates: usize,
    /// People left out for want of an email the filter allows.
    pub without_email: usize,
}

/// Writes companies or people as CSV in a preset's layout: the header, then one row an entity,
/// deduped by the preset's key, people filtered by their email.
pub struct CrmWriter {
    preset: Preset,
    subject: SearchSubject,
    emails: EmailFilter,
    writer: Writer<CrmRow>,
    seen: HashSet<String>,
    counts: CrmCounts,
}

/// Why a preset cannot write these rows.
#[derive(Debug)]
pub enum CrmError {
    /// The preset is for the other subject (e.g. `hubspot-companies` for people).
    WrongSubject {
        /// The preset asked for.
        preset: Preset,
        /// What the rows are.
        rows: SearchSubject,
    },
    /// The output could not be written.
    Io(io::Error),
}

impl std::fmt::Display for CrmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrmError::WrongSubject { preset, rows } => {
                let name = |s: SearchSubject| match s {
                    SearchSubject::Companies => "companies",
                    SearchSubject::People => "people",
                };
                let other = match rows {
                    SearchSubject::Companies => SearchSubject::People,
                    SearchSubject::People => SearchSubject::Companies,
                };
                write!(
                    f,
                    "--preset {} is for {}, not {}",
                    preset.name(),
                    name(preset.subject().unwrap_or(other)),
                    name(*rows)
                )
            }
            CrmError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for CrmError {
    fn from(e: io::Error) -> CrmError {
        CrmError::Io(e)
    }
}

impl CrmWriter {
    /// A CSV writer of `subject` rows in `preset`'s layout to `out` (stdout when `None`,
    /// a file replaced atomically), keeping people by `emails` (the preset's default when
    /// `None`). Errors: [`CrmError::WrongSubject`]; the file's ([`Writer::new`]).
    pub fn new(
        preset: Preset,
        subject: SearchSubject,
        emails: Option<EmailFilter>,
        out: Option<&PathBuf>,
    ) -> Result<CrmWriter, CrmError> {
        if preset.subject().is_some_and(|s| s != subject) {
            return Err(CrmError::WrongSubject {
                preset,
                rows: subject,
            });
        }
        Ok(CrmWriter {
            preset,
            subject,
            emails: emails.unwrap_or(preset.default_emails()),
            writer: Writer::with_columns(Format::Csv, out, preset.columns(subject))?,
            seen: HashSet::new(),
            counts: CrmCounts::default(),
        })
    }

    /// Writes one company (a people writer ignores it). Errors: the output's.
    pub fn company(&mut self, c: &Company) -> io::Result<()> {
        if self.subject != SearchSubject::Companies {
            return Ok(());
        }
        let cells = match self.preset {
            Preset::HubspotCompanies => hubspot_company(c),
            _ => crate::export::company_cells(c),
        };
        let key = (self.preset != Preset::Plain)
            .then(|| prospect_common::keys::normalize_domain(&c.domain))
            .filter(|k| !k.is_empty());
        self.write(key, cells)
    }

    /// Writes one person (a companies writer ignores it): left out when its email does not
    /// pass the filter (or, for a CRM preset, it has none), or its email was written before.
    /// Errors: the output's.
    pub fn person(&mut self, p: &LookalikePerson) -> io::Result<()> {
        if self.subject != SearchSubject::People {
            return Ok(());
        }
        let address = email_of(&p.person);
        let allowed = match (&address, self.emails) {
            (_, EmailFilter::All) if self.preset == Preset::Plain => true,
            (Some((_, status)), filter) => filter.allows(status),
            (None, _) => false,
        };
        if !allowed {
            self.counts.without_email += 1;
            return Ok(());
        }
        let company = p
            .company
            .as_ref()
            .and_then(|c| c.name.clone())
            .filter(|n| !n.trim().is_empty());
        let cells = match self.preset {
            Preset::HubspotContacts => hubspot_contact(&p.person, company),
            Preset::SalesforceLeads => salesforce_lead(&p.person, company),
            _ => p.cells(),
        };
        let key = (self.preset != Preset::Plain)
            .then(|| address.map(|(a, _)| a.to_lowercase()))
            .flatten();
        self.write(key, cells)
    }

    fn write(&mut self, key: Option<String>, cells: Vec<String>) -> io::Result<()> {
        if let Some(k) = key
            && !self.seen.insert(k)
        {
            self.counts.duplicates += 1;
            return Ok(());
        }
        self.counts.written += 1;
        self.writer.write(&CrmRow(cells))
    }

    /// Ends the output (a file renamed into place) and says what was written and left out.
    /// Errors: the output's.
    pub fn finish(self) -> io::Result<CrmCounts> {
        self.writer.finish()?;
        Ok(self.counts)
    }

    /// The filter in force.
    pub fn emails(&self) -> EmailFilter {
        self.emails
    }
}

impl CrmCounts {
    /// One line for the user: `"12 rows (3 left out without a verified or catch-all email,
    /// 1 duplicate)"`.
    pub fn describe(&self, emails: EmailFilter) -> String {
        let mut out = Vec::new();
        if self.without_email > 0 {
            out.push(format!(
                "{} left out without {}",
                self.without_email,
                emails.describe()
            ));
        }
        if self.duplicates > 0 {
            out.push(format!(
                "{} duplicate{}",
                self.duplicates,
                if self.duplicates == 1 { "" } else { "s" }
            ));
        }
        let rows = format!(
            "{} row{}",
            self.written,
            if self.written == 1 { "" } else { "s" }
        );
        if out.is_empty() {
            rows
        } else {
            format!("{rows} ({})", out.join(", "))
        }
    }
}

/// The address and its status (as on the wire), when the person has an address.
fn email_of(p: &Person) -> Option<(String, String)> {
    let e = p.email.as_ref()?;
    let a = e.address.as_deref()?.trim();
    (!a.is_empty()).then(|| (a.to_string(), e.status.as_str().to_string()))
}

fn text(v: &Option<String>) -> String {
    v.as_deref().unwrap_or_default().trim().to_string()
}

/// First and last name, split from `name` when the record has only that.
fn names(p: &Person) -> (String, String) {
    let (first, last) = (text(&p.first_name), text(&p.last_name));
    if !first.is_empty() || !last.is_empty() {
        return (first, last);
    }
    let full = text(&p.name);
    match full.rsplit_once(' ') {
        Some((f, l)) => (f.trim().to_string(), l.trim().to_string()),
        None => (String::new(), full),
    }
}

fn website(domain: &str) -> String {
    let d = prospect_common::keys::normalize_domain(domain);
    if d.is_empty() {
        String::new()
    } else {
        format!("https://{d}")
    }
}

fn phone_of(p: &Person) -> String {
    p.phone
        .as_ref()
        .and_then(|x| x.numbers.first().cloned())
        .unwrap_or_default()
}

fn hubspot_company(c: &Company) -> Vec<String> {
    let place = c
        .locations
        .iter()
        .find(|l| l.primary)
        .or(c.locations.first());
    let phone = c
        .phones
        .iter()
        .find(|n| n.primary == Some(true))
        .or(c.phones.first())
        .map(|n| n.number.clone())
        .unwrap_or_default();
    vec![
        prospect_common::keys::normalize_domain(&c.domain),
        text(&c.name),
        phone,
        place.map(|l| text(&l.locality)).unwrap_or_default(),
        place.map(|l| text(&l.region)).unwrap_or_default(),
        place
            .and_then(|l| l.country.clone())
            .or(c.primary_country.clone())
            .map(|s| s.to_uppercase())
            .unwrap_or_default(),
        c.employee_count_linkedin
            .or(c.employee_count_service)
            .map(|n| n.to_string())
            .unwrap_or_default(),
        c.year_founded.map(|y| y.to_string()).unwrap_or_default(),
        c.medias
            .as_ref()
            .and_then(|m| m.linkedin.as_ref())
            .map(|m| m.url.clone())
            .unwrap_or_default(),
        text(&c.description),
    ]
}

fn hubspot_contact(p: &Person, company: Option<String>) -> Vec<String> {
    let (first, last) = names(p);
    vec![
        email_of(p).map(|(a, _)| a).unwrap_or_default(),
        first,
        last,
        text(&p.job_title),
        phone_of(p),
        company.unwrap_or_default(),
        website(&p.domain),
        text(&p.country).to_uppercase(),
    ]
}

fn salesforce_lead(p: &Person, company: Option<String>) -> Vec<String> {
    let (first, last) = names(p);
    vec![
        first,
        last,
        email_of(p).map(|(a, _)| a).unwrap_or_default(),
        text(&p.job_title),
        company.unwrap_or_else(|| prospect_common::keys::normalize_domain(&p.domain)),
        phone_of(p),
        website(&p.domain),
        text(&p.country).to_uppercase(),
        "prospect".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::types::person::Email;

    fn person(id: &str, email: Option<(&str, &str)>) -> LookalikePerson {
        LookalikePerson {
            person: Person {
                id: id.into(),
                name: Some(format!("Ann {id}")),
                domain: "acme.com".into(),
                job_title: Some("Head of Sales".into()),
                email: email.map(|(a, s)| Email {
                    address: Some(a.into()),
                    status: WireEnum::from_wire(s),
                }),
                ..Person::default()
            },
            ..LookalikePerson::default()
        }
    }

    #[test]
    fn contacts_are_filtered_by_email_and_deduped_by_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("hubspot.csv");
        let mut w = CrmWriter::new(
            Preset::HubspotContacts,
            SearchSubject::People,
            None,
            Some(&out),
        )
        .unwrap();
        for p in [
            person("1", Some(("ann@acme.com", "verified"))),
            person("2", Some(("ANN@acme.com", "verified"))),
            person("3", Some(("bob@acme.com", "catchAll"))),
            person("4", Some(("guess@acme.com", "guessed"))),
            person("5", None),
        ] {
            w.person(&p).unwrap();
        }
        let emails = w.emails();
        let counts = w.finish().unwrap();
        assert_eq!(
            counts,
            CrmCounts {
                written: 2,
                duplicates: 1,
                without_email: 2
            }
        );
        assert_eq!(
            counts.describe(emails),
            "2 rows (2 left out without a verified or catch-all email, 1 duplicate)"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Email,First Name,Last Name,Job Title,Phone Number,Company Name,Website URL,Country/Region"
        );
        assert_eq!(
            lines[1],
            "ann@acme.com,Ann,1,Head of Sales,,,https://acme.com,"
        );
        assert!(lines[2].starts_with("bob@acme.com,"));
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn a_preset_for_companies_refuses_people() {
        let e = CrmWriter::new(Preset::HubspotCompanies, SearchSubject::People, None, None)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "--preset hubspot-companies is for companies, not people"
        );
        assert!(matches!(
            CrmWriter::new(
                Preset::SalesforceLeads,
                SearchSubject::Companies,
                None,
                None
            ),
            Err(CrmError::WrongSubject { .. })
        ));
    }

    #[test]
    fn verified_only_and_all() {
        assert!(EmailFilter::Verified.allows("verified"));
        assert!(!EmailFilter::Verified.allows("catchAll"));
        assert!(EmailFilter::All.allows("guessed"));
    }
}
