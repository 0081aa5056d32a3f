//! Watches of saved filter sets (issue 37), for every front end: the row of a new result with
//! its set's name ([`SetRow`]), the digest of a run with news ([`Digest`]), and its delivery
//! to a notify URL ([`notify`]), retried with backoff. The runs themselves are new-only
//! searches through the spend engine ([`crate::engine::SetSearch`]).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::export::{CompanyOut, Tabular};
use prospect_api::types::LookalikePerson;

/// Rows of a run a digest carries at most.
pub const DIGEST_ROWS: usize = 10;

/// Attempts at delivering a digest ([`notify`]): the first and 4 retries, after 0.5, 1, 2 and 4
/// seconds.
pub const NOTIFY_ATTEMPTS: u32 = 5;

/// How long one delivery attempt may take.
const NOTIFY_TIMEOUT: Duration = Duration::from_secs(10);

/// A new result of a set's run: its set's name and tab, then the record (JSON: the record's
/// members beside `set` and `tab`; CSV and table: [`SET_ROW_COLUMNS`]).
#[derive(Debug, Clone, Serialize)]
pub struct SetRow {
    /// The set's name.
    pub set: String,
    /// `companies` or `people`.
    pub tab: &'static str,
    /// The record.
    #[serde(flatten)]
    pub record: SetRecord,
}

/// The record of a [`SetRow`].
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SetRecord {
    /// A company, with its relevance or score.
    Company(Box<CompanyOut>),
    /// A person, with their company.
    Person(Box<LookalikePerson>),
}

/// The columns of a [`SetRow`] in CSV and tables: what identifies a company or a person, both
/// tabs in one layout (a person's company in `domain`).
pub const SET_ROW_COLUMNS: &[&str] = &[
    "set",
    "tab",
    "domain",
    "name",
    "country",
    "industries",
    "companySize",
    "personId",
    "jobTitle",
    "linkedinUrl",
];

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(|x| x.to_string()).unwrap_or_default()
}

impl Tabular for SetRow {
    fn columns() -> &'static [&'static str] {
        SET_ROW_COLUMNS
    }
    fn cells(&self) -> Vec<String> {
        use prospect_api::types::WireEnum;
        let mut cells = vec![self.set.clone(), self.tab.to_string()];
        match &self.record {
            SetRecord::Company(c) => {
                let c = &c.company;
                cells.extend([
                    c.domain.clone(),
                    opt(&c.name),
                    opt(&c.primary_country),
                    c.industries.join(";"),
                    c.company_size
                        .as_ref()
                        .map(|s| s.as_str().to_string())
                        .unwrap_or_default(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]);
            }
            SetRecord::Person(p) => {
                let (p, company) = (&p.person, &p.company);
                cells.extend([
                    p.domain.clone(),
                    opt(&p.name),
                    opt(&p.country),
                    company
                        .as_ref()
                        .map(|c| c.industries.join(";"))
                        .unwrap_or_default(),
                    company
                        .as_ref()
                        .and_then(|c| c.company_size.as_ref())
                        .map(|s| s.as_str().to_string())
                        .unwrap_or_default(),
                    p.id.clone(),
                    opt(&p.job_title),
                    opt(&p.linkedin_url),
                ]);
            }
        }
        cells
    }
}

/// A recorded run of a set (`prospect watch --history SET`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetRunOut {
    /// The set's name.
    pub set: String,
    /// When it ran.
    pub ran_at: DateTime<Utc>,
    /// `companies` or `people`.
    pub tab: String,
    /// It excluded what the set's earlier runs bought.
    pub new_only: bool,
    /// Results it handed on.
    pub results: u64,
    /// Of those, new to the set.
    pub new: u64,
    /// Owned results bought again (past the excludes cap).
    pub paid_again: u64,
    /// Credits it cost (standard pool).
    pub credits_used: f64,
    /// The job it ran as.
    pub job: Option<i64>,
}

impl From<crate::owned::SetRun> for SetRunOut {
    fn from(r: crate::owned::SetRun) -> SetRunOut {
        SetRunOut {
            set: r.set_name,
            ran_at: r.ran_at,
            tab: r.subject,
            new_only: r.new_only,
            results: r.results,
            new: r.new_results,
            paid_again: r.paid_again,
            credits_used: r.credits,
            job: r.job.map(|j| j.0),
        }
    }
}

impl Tabular for SetRunOut {
    fn columns() -> &'static [&'static str] {
        &[
            "set",
            "ranAt",
            "tab",
            "newOnly",
            "results",
            "new",
            "paidAgain",
            "creditsUsed",
            "job",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.set.clone(),
            self.ran_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            self.tab.clone(),
            if self.new_only { "yes" } else { "no" }.to_string(),
            self.results.to_string(),
            self.new.to_string(),
            self.paid_again.to_string(),
            format!("{}", (self.credits_used * 100.0).round() / 100.0),
            opt(&self.job),
        ]
    }
}

/// What one tab of a set's run found.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabRun {
    /// `companies` or `people`.
    pub tab: &'static str,
    /// New results.
    pub new: u64,
    /// Owned results bought again (past the excludes cap).
    pub paid_again: u64,
    /// Owned results sent as excludes.
    pub excluded: u64,
    /// Credits it cost (standard pool).
    pub credits_used: f64,
}

/// The digest of a set's run with news, as posted to a notify URL: the set, when, the counts
/// and cost per tab and in all, the first [`DIGEST_ROWS`] new rows, and `text`, one line a
/// chat webhook shows.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Digest {
    /// The set's name.
    pub set: String,
    /// When the run started.
    pub ran_at: DateTime<Utc>,
    /// New results, both tabs.
    pub new: u64,
    /// Owned results bought again, both tabs.
    pub paid_again: u64,
    /// Credits the run cost (standard pool).
    pub credits_used: f64,
    /// Each tab's run.
    pub tabs: Vec<TabRun>,
    /// The first new rows.
    pub rows: Vec<SetRow>,
    /// `prospect watch: 2 new companies for "de-it" (0.4 credits)`.
    pub text: String,
}

impl Digest {
    /// The digest of `tabs` of set `set`, run at `ran_at`, with its first new `rows`.
    pub fn new(set: &str, ran_at: DateTime<Utc>, tabs: Vec<TabRun>, rows: Vec<SetRow>) -> Digest {
        let new = tabs.iter().map(|t| t.new).sum();
        let paid_again = tabs.iter().map(|t| t.paid_again).sum();
        let credits_used = tabs.iter().map(|t| t.credits_used).sum::<f64>();
        let found = tabs
            .iter()
            .filter(|t| t.new > 0)
            .map(|t| {
                let noun = match (t.tab, t.new) {
                    ("people", 1) => "person",
                    ("people", _) => "people",
                    (_, 1) => "company",
                    _ => "companies",
                };
                format!("{} new {noun}", prospect_common::words::thousands(t.new))
            })
            .collect::<Vec<_>>()
            .join(" and ");
        let text = format!(
            "prospect watch: {} for {set:?} ({} credits)",
            if found.is_empty() {
                "nothing new".to_string()
            } else {
                found
            },
            (credits_used * 100.0).round() / 100.0
        );
        Digest {
            set: set.to_string(),
            ran_at,
            new,
            paid_again,
            credits_used,
            tabs,
            rows: rows.into_iter().take(DIGEST_ROWS).collect(),
            text,
        }
    }
}

/// Checks a notify URL before anything runs: `http` or `https` with a host. Errors name the
/// URL's problem (never the URL's user or password).
pub fn check_notify_url(url: &str) -> Result<url::Url, String> {
    let u = url::Url::parse(url).map_err(|e| format!("the notify URL does not read: {e}"))?;
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
        return Err(format!(
            "the notify URL must be http:// or https:// with a host, not {}:",
            u.scheme()
        ));
    }
    Ok(u)
}

/// Posts `digest` as JSON to `url` with no credentials of prospect's (the API token never goes
/// with it): up to [`NOTIFY_ATTEMPTS`] attempts, again after a network error, a 429 or a 5xx,
/// waiting 0.5, 1, 2 and 4 seconds between them; a 2xx delivers it. Returns the attempts it
/// took. Errors: a 4xx other than 429 (not retried), the last failure after every attempt, or
/// `stop` while waiting, in words.
pub async fn notify(
    url: &url::Url,
    digest: &Digest,
    stop: &CancellationToken,
) -> Result<u32, String> {
    let client = reqwest::Client::builder()
        .timeout(NOTIFY_TIMEOUT)
        .user_agent(concat!("prospect/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("the notify client: {e}"))?;
    let mut wait = Duration::from_millis(500);
    let mut last = String::new();
    for attempt in 1..=NOTIFY_ATTEMPTS {
        match client.post(url.clone()).json(digest).send().await {
            Ok(r) if r.status().is_success() => return Ok(attempt),
            Ok(r) if r.status().is_client_error() && r.status().as_u16() != 429 => {
                return Err(format!("the notify URL answered {}", r.status()));
            }
            Ok(r) => last = format!("the notify URL answered {}", r.status()),
            Err(e) => last = format!("the notify URL: {}", e.without_url()),
        }
        if attempt == NOTIFY_ATTEMPTS {
            break;
        }
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stop.cancelled() => return Err(format!("{last}; stopped before retrying")),
        }
        wait *= 2;
    }
    Err(format!("{last} ({NOTIFY_ATTEMPTS} attempts)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_says_what_is_new_in_one_line() {
        let tabs = vec![
            TabRun {
                tab: "companies",
                new: 2,
                credits_used: 0.4,
                ..TabRun::default()
            },
            TabRun {
                tab: "people",
                new: 1,
                credits_used: 0.2,
                ..TabRun::default()
            },
        ];
        let d = Digest::new("de-it", Utc::now(), tabs, vec![]);
        assert_eq!(d.new, 3);
        assert_eq!(
            d.text,
            "prospect watch: 2 new companies and 1 new person for \"de-it\" (0.6 credits)"
        );
    }

    #[test]
    fn only_web_urls_are_notified() {
        assert!(check_notify_url("https://hooks.example.com/x").is_ok());
        assert!(check_notify_url("file:///etc/passwd").is_err());
        assert!(check_notify_url("not a url").is_err());
    }
}
