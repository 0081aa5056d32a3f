//! Synthetic people, generated deterministically from each company at load time
//! (`../shared/data/README.md`: people are synthetic, emails on reserved domains, phones from
//! ranges reserved for fiction).
//!
//! Each company gets `clamp(2 + 1.2·log2(employees + 1), 3, 40)` people. A person is a compact
//! [`PersonRow`]: company, first/last name (indexes into the name pools of the company's
//! country), job title (index into [`People::titles`]: `Reference.job_titles` plus a few founder
//! and C-level titles), seniority, department, email and phone status, the start of the current
//! position and a 64-bit seed. Everything else (experiences, skills, descriptions, email
//! address, phone number, LinkedIn URL) is derived from the row and its seed on demand, the same
//! on every load: the random source is [`SplitMix64`] seeded from the domain hash.
//!
//! Person ids are 24 lowercase hex characters that encode the company's domain hash and the
//! person's ordinal within the company (obfuscated, with a 16-bit check), so resolving an id
//! needs no global id table.

use std::collections::HashMap;

use crate::dataset::format::{CompanyRow, Reference};
use prospect_api::types::common::{Department, EmailStatus, PhoneStatus, Seniority, WireEnum};

use super::index::RowView;
use super::layered::Layered;
use crate::dataset::load::Db;

pub use super::held::{MAX_SKILLS, People, PersonRow, TitleInfo};
use super::index::{CompanyCols, department_index};
use super::{DATA_DATE, SplitMix64, hash_str, hex, mix64, slug};

/// What [`People::generate_rows`] makes: the person rows, each company's range of person
/// indexes, and each company's `(domain hash, company index)`.
pub type GeneratedPeople = (Vec<PersonRow>, Vec<(u32, u32)>, Vec<(u64, u32)>);

/// Key XORed into the low 32 bits of person ids.
const ID_KEY: u32 = 0x5A3C_96E1;

/// Founder and executive titles added to `Reference.job_titles`: (title, seniority, department).
pub const EXTRA_TITLES: [(&str, &str, &str); 14] = [
    ("Founder & CEO", "Founder", "Founder/Owner"),
    ("Co-Founder", "Founder", "Founder/Owner"),
    ("Co-Founder & CTO", "Founder", "Engineering"),
    ("Owner", "Owner", "Founder/Owner"),
    ("Chief Executive Officer", "C-Level", "Management"),
    ("Chief Technology Officer", "C-Level", "Engineering"),
    (
        "Chief Financial Officer",
        "C-Level",
        "Accounting and Finance",
    ),
    ("Chief Operating Officer", "C-Level", "Operations"),
    (
        "Chief Marketing Officer",
        "C-Level",
        "Marketing and Advertising",
    ),
    ("Board Member", "Board Member", "Board"),
    ("VP of Sales", "VP", "Sales"),
    ("VP of Engineering", "VP", "Engineering"),
    ("Head of Product", "Head", "Product"),
    ("Director of Human Resources", "Director", "HR"),
];

/// The truth behind a reveal: a person's email and phone with their statuses (SPEC.md §2.2).
#[derive(Debug, Clone, PartialEq)]
pub struct PersonContact {
    /// Person id.
    pub id: String,
    /// Company domain.
    pub domain: String,
    /// Email address on a reserved `.example` domain; `None` when the status is `notFound`.
    pub email: Option<String>,
    /// Email verification status.
    pub email_status: EmailStatus,
    /// Phone numbers from ranges reserved for fiction; empty unless the status is `verified`.
    pub phones: Vec<String>,
    /// Phone verification status.
    pub phone_status: PhoneStatus,
}

/// One experience of a person, in compact form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exp {
    /// Company index.
    pub company: u32,
    /// Title index.
    pub title: u32,
    /// Start, `yyyymm`.
    pub from: u32,
    /// End, `yyyymm`; `None` for the current position.
    pub to: Option<u32>,
}

const DEFAULT_FIRST: [&str; 8] = [
    "Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie",
];
const DEFAULT_LAST: [&str; 8] = [
    "Smith", "Miller", "Walker", "Young", "Hill", "Baker", "Parker", "Reed",
];

mod skills;
mod titles;
pub use skills::GENERAL_SKILLS;
use skills::SKILL_STEMS;
use titles::has_stem;
pub use titles::{GENERIC_OFFICE_WORDS, OFFICE_WORDS, TRADE_WORDS, is_industrial_category};

impl People {
    /// Generates the people of every company into a [`People::vocab`]; returns the range of
    /// each company's people in `rows` (to store in `CompanyCols::people`).
    pub fn generate(
        mut self,
        companies: &[RowView<'_>],
        cols: &[CompanyCols],
    ) -> (People, Vec<PersonRow>, Vec<(u32, u32)>) {
        // Each company's people depend on that company alone, and where its rows start is the
        // sum of the counts before it: two halves are generated on two threads.
        let mid = companies.len() / 2;
        let first_row: u32 = companies[..mid]
            .iter()
            .map(|c| people_count(c.employees))
            .sum();
        let this = &self;
        let ((mut rows, mut ranges, mut hashes), (rows2, ranges2, hashes2)) =
            std::thread::scope(|s| {
                let second = s.spawn(|| {
                    this.generate_rows(&companies[mid..], &cols[mid..], mid as u32, first_row)
                });
                let first = this.generate_rows(&companies[..mid], &cols[..mid], 0, 0);
                (first, second.join().expect("people thread"))
            });
        rows.extend(rows2);
        ranges.extend(ranges2);
        hashes.extend(hashes2);
        self.by_domain_hash = hashes.into_iter().collect();
        self.handle_tags = handle_tags(&rows, 0);
        (self, rows, ranges)
    }

    /// The people of `companies` (their columns in `cols`, same order), the first of them
    /// company index `first_company` and its first person row index `first_row`: the rows, the
    /// range of each company's people (row indexes counted from `first_row`), and each
    /// company's `(domain hash, company index)` for resolving person ids. The same company row
    /// always gets the same people.
    pub fn generate_rows(
        &self,
        companies: &[RowView<'_>],
        cols: &[CompanyCols],
        first_company: u32,
        first_row: u32,
    ) -> GeneratedPeople {
        let p = self;
        let mut ranges = Vec::with_capacity(companies.len());
        let mut hashes = Vec::with_capacity(companies.len());
        let n_depts = Department::ALL.len();
        let total: usize = companies
            .iter()
            .map(|c| people_count(c.employees) as usize)
            .sum();
        let mut rows: Vec<PersonRow> = Vec::with_capacity(total);
        for (ci, row) in companies.iter().enumerate() {
            let dh = hash_str(row.domain);
            hashes.push((dh, first_company + ci as u32));
            let start = first_row + rows.len() as u32;
            let n = people_count(row.employees);
            let mut rng = SplitMix64(dh);
            let (fg, lg) = (p.first_group(row.country), p.last_group(row.country));
            let dept_weights: Vec<(u8, u32)> = cols[ci]
                .dept_sizes
                .iter()
                .copied()
                .filter(|(_, n)| *n > 0)
                .collect();
            let dept_total: u64 = dept_weights.iter().map(|(_, n)| *n as u64).sum();
            let industrial = row
                .industry_categories
                .iter()
                .any(|c| is_industrial_category(c));
            let mut first_exec: Option<usize> = None;
            for ord in 0..n {
                let title = if ord == 0 {
                    p.extra_title(if row.employees <= 500 {
                        "Founder & CEO"
                    } else {
                        "Chief Executive Officer"
                    })
                } else if ord == 1 && row.employees <= 50 {
                    p.extra_title("Co-Founder & CTO")
                } else if ord <= 2 && row.employees > 50 {
                    let extra = [
                        "Chief Technology Officer",
                        "Chief Financial Officer",
                        "Chief Operating Officer",
                        "Chief Marketing Officer",
                    ];
                    // Same draw as ever (so every later value stays the same), but never the
                    // same executive title twice in one company.
                    let mut i = rng.below(extra.len() as u64) as usize;
                    if first_exec == Some(i) {
                        i = (i + 1) % extra.len();
                    }
                    first_exec = Some(i);
                    p.extra_title(extra[i])
                } else {
                    let dept = if dept_total > 0 {
                        let mut x = rng.below(dept_total);
                        let mut d = dept_weights[0].0;
                        for (dd, w) in &dept_weights {
                            if x < *w as u64 {
                                d = *dd;
                                break;
                            }
                            x -= *w as u64;
                        }
                        d
                    } else {
                        rng.below(n_depts as u64) as u8
                    };
                    // Office titles, except at industrial companies where half the people
                    // draw from every title of the department (trades and field work too).
                    let office = &p.office_by_dept[dept as usize];
                    let list = if office.is_empty() || industrial && rng.below(2) == 0 {
                        &p.titles_by_dept[dept as usize]
                    } else {
                        office
                    };
                    if list.is_empty() {
                        rng.below(p.titles.len() as u64) as u32
                    } else {
                        list[rng.below(list.len() as u64) as usize]
                    }
                };
                let t = &p.titles[title as usize];
                let first = (fg.0 + rng.below((fg.1 - fg.0) as u64) as usize) as u32;
                let last = (lg.0 + rng.below((lg.1 - lg.0) as u64) as usize) as u32;
                let e = rng.below(100);
                let email_status = match e {
                    0..=54 => 0,  // verified
                    55..=74 => 1, // guessed
                    75..=86 => 2, // catchAll
                    _ => 3,       // notFound
                };
                let ph = rng.below(100);
                let phone_status = match ph {
                    0..=34 => 0,  // verified
                    35..=84 => 1, // notFound
                    _ => 2,       // inProgress
                };
                // Founders started when the company was founded (a stable guess when the year
                // is unknown); everyone else within the last 15 years (never before founding).
                let founded = match row.year_founded {
                    Some(y) if y > 1900 => y,
                    _ => 2000 + (dh % 20) as i32,
                };
                let (ty, tm) = DATA_DATE;
                let span = ((ty - founded).max(0) * 12 + tm as i32) as u64;
                let founder = ord == 0 && row.employees <= 500 || ord == 1 && row.employees <= 50;
                let back = if founder {
                    span.saturating_sub(rng.below(6))
                } else {
                    rng.below(span.clamp(1, 180))
                };
                let months = (ty * 12 + tm as i32 - 1) - back as i32;
                let started = (months / 12) as u32 * 100 + (months % 12) as u32 + 1;
                rows.push(PersonRow {
                    company: first_company + ci as u32,
                    first,
                    last,
                    title,
                    ordinal: ord as u16,
                    seniority: t.seniority,
                    department: t.department,
                    email_status,
                    phone_status,
                    n_exp: 1 + rng.below(4) as u8,
                    started,
                    seed: rng.next_u64(),
                    skills: [0; MAX_SKILLS],
                    n_skills: 0,
                });
                if let Some(r) = rows.last_mut() {
                    let (skills, n) = p.draw_skills(r);
                    (r.skills, r.n_skills) = (skills, n);
                }
            }
            ranges.push((start, first_row + rows.len() as u32));
        }
        (rows, ranges, hashes)
    }

    /// The vocabularies of people (titles, names, skills) without any person.
    pub fn vocab(r: &Reference) -> People {
        let n_depts = Department::ALL.len();
        let mut p = People {
            titles_by_dept: vec![Vec::new(); n_depts],
            skills_by_dept: vec![Vec::new(); n_depts + 1],
            ..Default::default()
        };
        let mut seen = std::collections::HashSet::new();
        let extra = EXTRA_TITLES.iter().map(|(t, s, d)| (*t, *s, *d));
        let reference = r.job_titles.iter().map(|j| {
            (
                j.title.as_str(),
                j.seniority.as_str(),
                j.department.as_str(),
            )
        });
        for (title, sen, dept) in extra.chain(reference) {
            let lower = title.trim().to_lowercase();
            if lower.is_empty() || !seen.insert(lower.clone()) {
                continue;
            }
            let seniority = Seniority::ALL
                .iter()
                .position(|s| s.as_str().eq_ignore_ascii_case(sen))
                .unwrap_or(Seniority::ALL.len() - 1) as u8;
            let department = department_index(dept);
            let id = p.titles.len() as u32;
            // Founder and C-level titles are only given explicitly, never drawn at random.
            if id as usize >= EXTRA_TITLES.len() {
                p.titles_by_dept[department as usize].push(id);
            }
            p.titles.push(TitleInfo {
                title: title.trim().to_string(),
                lower,
                seniority,
                department,
            });
        }
        p.office_by_dept = vec![Vec::new(); n_depts];
        // Trade titles, testing each distinct word once.
        let (trade_multi, trade_single): (Vec<&str>, Vec<&str>) = TRADE_WORDS
            .iter()
            .partition(|st| st.contains(' ') || st.contains('-'));
        let mut word_is_trade: HashMap<&str, bool> = HashMap::new();
        let trade: Vec<bool> = p
            .titles
            .iter()
            .map(|t| {
                trade_multi.iter().any(|st| t.lower.contains(st))
                    || t.lower
                        .split(|c: char| !c.is_alphanumeric() && c != '&')
                        .any(|w| {
                            *word_is_trade
                                .entry(w)
                                .or_insert_with(|| trade_single.iter().any(|st| w.starts_with(st)))
                        })
            })
            .collect();
        drop(word_is_trade);
        for (di, pool) in p.office_by_dept.iter_mut().enumerate() {
            let all = &p.titles_by_dept[di];
            let no_trade: Vec<u32> = all
                .iter()
                .copied()
                .filter(|&t| !trade[t as usize])
                .collect();
            let stems = OFFICE_WORDS
                .iter()
                .find(|(d, _)| department_index(d) as usize == di)
                .map(|(_, st)| *st)
                .unwrap_or(GENERIC_OFFICE_WORDS);
            let with = |st: &[&str]| -> Vec<u32> {
                no_trade
                    .iter()
                    .copied()
                    .filter(|&t| has_stem(&p.titles[t as usize].lower, st))
                    .collect()
            };
            let mut office = with(stems);
            if office.is_empty() {
                office = with(GENERIC_OFFICE_WORDS);
            }
            // Departments without any office title keep their non-trade titles.
            *pool = if office.is_empty() { no_trade } else { office };
        }
        let mut words: HashMap<&str, Vec<u32>> = HashMap::new();
        for (i, t) in p.titles.iter().enumerate() {
            for w in t.lower.split(|c: char| !c.is_alphanumeric()) {
                if !w.is_empty() {
                    let e = words.entry(w).or_default();
                    if e.last() != Some(&(i as u32)) {
                        e.push(i as u32);
                    }
                }
            }
        }
        let mut title_words: Vec<(String, Vec<u32>)> =
            words.into_iter().map(|(w, t)| (w.to_string(), t)).collect();
        title_words.sort_unstable();
        p.title_words = title_words;
        let groups = |src: &[(Vec<String>, Vec<String>)], default: &[&str]| {
            let mut pool = Vec::new();
            let mut ranges = Vec::new();
            let mut by_country = HashMap::new();
            for (countries, names) in src {
                if names.is_empty() {
                    continue;
                }
                let start = pool.len();
                pool.extend(names.iter().cloned());
                for c in countries {
                    by_country.entry(c.to_lowercase()).or_insert(ranges.len());
                }
                ranges.push((start, pool.len()));
            }
            if ranges.is_empty() {
                pool.extend(default.iter().map(|s| s.to_string()));
                ranges.push((0, pool.len()));
            }
            (pool, ranges, by_country)
        };
        let (fp, fr, fc) = groups(&r.first_names, &DEFAULT_FIRST);
        let (lp, lr, lc) = groups(&r.last_names, &DEFAULT_LAST);
        p.first_folded = fp.iter().map(|s| super::fold(s)).collect();
        p.last_folded = lp.iter().map(|s| super::fold(s)).collect();
        (p.first_pool, p.first_groups, p.first_by_country) = (fp, fr, fc);
        (p.last_pool, p.last_groups, p.last_by_country) = (lp, lr, lc);
        p.skills = r.skills.clone();
        for g in GENERAL_SKILLS {
            if !p.skills.iter().any(|s| s.eq_ignore_ascii_case(g)) {
                p.skills.push(g.to_string());
            }
        }
        // Skill indexes are stored as `u16` in each person row.
        p.skills.truncate(u16::MAX as usize);
        p.skills_lower = p.skills.iter().map(|s| s.to_lowercase()).collect();
        for (i, s) in p.skills.iter().enumerate() {
            if GENERAL_SKILLS.iter().any(|g| g.eq_ignore_ascii_case(s)) {
                p.skills_by_dept[n_depts].push(i as u32);
                continue;
            }
            let l = s.to_lowercase();
            if let Some((d, _)) = SKILL_STEMS
                .iter()
                .find(|(_, stems)| stems.iter().any(|st| l.contains(st)))
            {
                p.skills_by_dept[department_index(d) as usize].push(i as u32);
            }
        }
        p
    }

    fn extra_title(&self, title: &str) -> u32 {
        EXTRA_TITLES
            .iter()
            .position(|(t, _, _)| *t == title)
            .unwrap_or(0) as u32
    }

    fn first_group(&self, country: &str) -> (usize, usize) {
        let g = self
            .first_by_country
            .get(country)
            .or_else(|| self.first_by_country.get("us"))
            .copied()
            .unwrap_or(0);
        self.first_groups[g]
    }

    fn last_group(&self, country: &str) -> (usize, usize) {
        let g = self
            .last_by_country
            .get(country)
            .or_else(|| self.last_by_country.get("us"))
            .copied()
            .unwrap_or(0);
        self.last_groups[g]
    }

    /// The person id of a row: 24 lowercase hex characters, stable across loads.
    pub fn id(&self, companies: &Layered<CompanyRow>, p: &PersonRow) -> String {
        person_id(hash_str(&companies[p.company as usize].domain), p.ordinal)
    }

    /// The `(domain hash, ordinal)` a person id encodes; `None` for a malformed id or one whose
    /// check bits do not match (see [`person_id`]).
    pub fn decode_id(id: &str) -> Option<(u64, u16)> {
        let id = id.trim();
        if id.len() != 24 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let hi = u64::from_str_radix(&id[..16], 16).ok()?;
        let lo = u32::from_str_radix(&id[16..], 16).ok()? ^ ID_KEY;
        let ordinal = (lo >> 16) as u16;
        let dh = hi ^ mix64(ordinal as u64 + 1);
        if (lo & 0xFFFF) as u64 != mix64(dh ^ ordinal as u64) & 0xFFFF {
            return None;
        }
        Some((dh, ordinal))
    }

    /// First and last name of a person.
    pub fn names(&self, p: &PersonRow) -> (&str, &str) {
        (
            &self.first_pool[p.first as usize],
            &self.last_pool[p.last as usize],
        )
    }

    /// The LinkedIn handle: `<first>-<last>-<8 hex>` (ASCII-folded; `member` when a name has no
    /// Latin letters).
    pub fn handle(&self, p: &PersonRow) -> String {
        let (f, l) = self.names(p);
        let mut base = slug(&format!("{f} {l}"), "-");
        if base.is_empty() {
            base = "member".into();
        }
        format!("{base}-{}", hex(handle_tag(p.seed) as u64, 8))
    }

    /// The handle of a LinkedIn handle or profile URL and the tag its last 8 hex digits hold
    /// (`None` when it has no such tag): what [`Db::resolve_handle`] looks up.
    pub fn handle_and_tag(handle_or_url: &str) -> Option<(String, u32)> {
        let h = linkedin_handle(handle_or_url);
        let tag_hex = h.rsplit('-').next()?;
        if tag_hex.len() != 8 {
            return None;
        }
        let tag = u32::from_str_radix(tag_hex, 16).ok()?;
        Some((h, tag))
    }

    /// Email address `first.last@<domain label>.example` (reserved domain, RFC 2606).
    pub fn email(&self, company: &CompanyRow, p: &PersonRow) -> String {
        let (f, l) = self.names(p);
        let mut local = slug(&format!("{f} {l}"), ".");
        if local.is_empty() {
            local = format!("member.{}", hex(p.seed, 6));
        }
        format!("{local}@{}.example", email_label(&company.domain))
    }

    /// A phone number from a range reserved for fiction: `+1 555-01xx` for the Americas,
    /// `+44 7700 900xxx` elsewhere.
    pub fn phone(&self, company: &CompanyRow, p: &PersonRow) -> String {
        let x = mix64(p.seed ^ 0xF00D);
        match company.country.as_str() {
            "us" | "ca" | "mx" | "br" | "ar" | "cl" | "co" | "pe" => {
                format!("+1 555-01{:02}", x % 100)
            }
            _ => format!("+44 7700 900{:03}", x % 1000),
        }
    }

    /// The email and phone of a person with their statuses (the truth behind a reveal).
    pub fn contact(&self, companies: &Layered<CompanyRow>, p: &PersonRow) -> PersonContact {
        let c = &companies[p.company as usize];
        let email_status = EmailStatus::ALL[p.email_status as usize].clone();
        let phone_status = PhoneStatus::ALL[p.phone_status as usize].clone();
        PersonContact {
            id: self.id(companies, p),
            domain: c.domain.clone(),
            email: (email_status != EmailStatus::NotFound).then(|| self.email(c, p)),
            email_status,
            phones: if phone_status == PhoneStatus::Verified {
                vec![self.phone(c, p)]
            } else {
                Vec::new()
            },
            phone_status,
        }
    }

    /// The experiences of a person, current first: the current position at the person's company
    /// since `started`, then up to three earlier ones at other companies of the dataset, drawn
    /// among its first `n_companies` (the dataset's: `Layered::base_len`, so that gathering a
    /// company changes nobody's past).
    pub fn experiences(&self, n_companies: usize, p: &PersonRow) -> Vec<Exp> {
        let mut out = Vec::with_capacity(p.n_exp as usize);
        out.push(Exp {
            company: p.company,
            title: p.title,
            from: p.started,
            to: None,
        });
        let mut rng = SplitMix64(p.seed ^ 0xE4E4);
        let mut end = ym_to_months(p.started) - rng.range(0, 3) as i32;
        for _ in 1..p.n_exp {
            let len = rng.range(10, 60) as i32;
            let start = end - len;
            let company = if n_companies > 1 {
                rng.below(n_companies as u64) as u32
            } else {
                p.company
            };
            // Earlier titles stay office titles for someone in an office title now.
            let office = &self.office_by_dept[p.department as usize];
            let list = if office.binary_search(&p.title).is_ok() {
                office
            } else {
                &self.titles_by_dept[p.department as usize]
            };
            let title = if list.is_empty() {
                p.title
            } else {
                list[rng.below(list.len() as u64) as usize]
            };
            out.push(Exp {
                company,
                title,
                from: months_to_ym(start),
                to: Some(months_to_ym(end)),
            });
            end = start - rng.range(0, 4) as i32;
        }
        out
    }

    /// Skill indexes of a person (4–8, mostly of the person's department).
    pub fn skill_ids(&self, p: &PersonRow, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            p.skills[..(p.n_skills as usize).min(MAX_SKILLS)]
                .iter()
                .map(|&s| s as u32),
        );
    }

    /// The skills of a person as drawn from its seed and department (4–8 distinct skill
    /// indexes; none when the vocabulary is empty).
    fn draw_skills(&self, p: &PersonRow) -> ([u16; MAX_SKILLS], u8) {
        let mut out = [0u16; MAX_SKILLS];
        let mut n = 0usize;
        if self.skills.is_empty() {
            return (out, 0);
        }
        let mut rng = SplitMix64(p.seed ^ 0x5C11);
        let k = 4 + rng.below(5) as usize;
        let dept = &self.skills_by_dept[p.department as usize];
        let general = &self.skills_by_dept[Department::ALL.len()];
        for _ in 0..k {
            let pick = if !dept.is_empty() && (general.is_empty() || rng.below(10) < 6) {
                dept[rng.below(dept.len() as u64) as usize]
            } else if !general.is_empty() {
                general[rng.below(general.len() as u64) as usize]
            } else {
                rng.below(self.skills.len() as u64) as u32
            };
            let pick = pick as u16;
            if n < MAX_SKILLS && !out[..n].contains(&pick) {
                out[n] = pick;
                n += 1;
            }
        }
        (out, n as u8)
    }

    /// Number of connections on the professional network (50–3000, stable).
    pub fn connections(&self, p: &PersonRow) -> i64 {
        50 + (mix64(p.seed ^ 0xC0) % 2951) as i64
    }

    /// Number of followers on the professional network (stable; more for senior people).
    pub fn followers(&self, p: &PersonRow) -> i64 {
        let base = (mix64(p.seed ^ 0xF0) % 1500) as i64;
        if p.seniority <= 3 { base * 8 } else { base }
    }
}

/// Months since a person's profile was last updated (0–11, stable).
pub fn updated_months_ago(p: &PersonRow) -> u32 {
    (mix64(p.seed ^ 0x0DA7E) % 12) as u32
}

/// Number of people generated for a company of `employees`:
/// `clamp(round(2 + 1.2·log2(employees + 1)), 3, 40)`.
pub fn people_count(employees: u32) -> u32 {
    let n = 2.0 + 1.2 * ((employees as f64) + 1.0).log2();
    (n.round() as u32).clamp(3, 40)
}

/// The 32-bit tag at the end of a person's LinkedIn handle.
fn handle_tag(seed: u64) -> u32 {
    (mix64(seed ^ 0x11AA) >> 32) as u32
}

/// `(handle tag, person index)` of `rows` (the first one person index `first_row`), sorted: what
/// [`People::handle_tags`] holds.
pub fn handle_tags(rows: &[PersonRow], first_row: u32) -> Vec<(u32, u32)> {
    let mut tags: Vec<(u32, u32)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (handle_tag(r.seed), first_row + i as u32))
        .collect();
    tags.sort_unstable();
    tags
}

/// The person id of (domain hash, ordinal): 24 hex characters.
pub fn person_id(domain_hash: u64, ordinal: u16) -> String {
    let hi = domain_hash ^ mix64(ordinal as u64 + 1);
    let check = (mix64(domain_hash ^ ordinal as u64) & 0xFFFF) as u32;
    let lo = (((ordinal as u32) << 16) | check) ^ ID_KEY;
    format!("{}{}", hex(hi, 16), hex(lo as u64, 8))
}

/// The email domain label of a company domain: its first label (`acme` for `acme.co.uk`).
pub fn email_label(domain: &str) -> &str {
    domain.split('.').next().unwrap_or(domain)
}

/// The handle of a LinkedIn profile URL or handle, lowercase
/// (`https://www.linkedin.com/in/jane-doe-1a2b3c4d/` → `jane-doe-1a2b3c4d`).
pub fn linkedin_handle(s: &str) -> String {
    let s = s.trim().trim_end_matches('/').to_lowercase();
    match s.find("/in/") {
        Some(p) => s[p + 4..]
            .split(['/', '?'])
            .next()
            .unwrap_or("")
            .to_string(),
        None => s,
    }
}

/// `yyyymm` → months since year 0.
pub fn ym_to_months(ym: u32) -> i32 {
    (ym / 100) as i32 * 12 + (ym % 100) as i32 - 1
}

/// Months since year 0 → `yyyymm`.
pub fn months_to_ym(m: i32) -> u32 {
    (m / 12) as u32 * 100 + (m % 12) as u32 + 1
}

/// `yyyymm` → `YYYY-MM-01`.
pub fn ym_date(ym: u32) -> String {
    format!("{:04}-{:02}-01", ym / 100, ym % 100)
}

impl Db {
    /// The person row at person index `pi` (an index the database handed out).
    pub(crate) fn person(&self, pi: u32) -> &PersonRow {
        &self.person_rows[pi as usize]
    }

    /// Resolves a person id to a person index (`None` for a malformed or unknown id); people
    /// of gathered companies too.
    pub(crate) fn resolve_person_id(&self, id: &str) -> Option<u32> {
        let (dh, ordinal) = People::decode_id(id)?;
        let c = *self
            .people
            .by_domain_hash
            .get(&dh)
            .or_else(|| self.gathered.by_domain_hash.get(&dh))?;
        let (s, e) = self.cols[c as usize].people;
        let idx = s + ordinal as u32;
        (idx < e).then_some(idx)
    }

    /// Resolves a LinkedIn handle or profile URL to a person index; people of gathered
    /// companies too.
    pub(crate) fn resolve_handle(&self, handle_or_url: &str) -> Option<u32> {
        let (h, tag) = People::handle_and_tag(handle_or_url)?;
        [&self.people.handle_tags, &self.gathered.handle_tags]
            .into_iter()
            .find_map(|tags| {
                let start = tags.partition_point(|(t, _)| *t < tag);
                tags[start..]
                    .iter()
                    .take_while(|(t, _)| *t == tag)
                    .map(|(_, i)| *i)
                    .find(|&i| self.people.handle(self.person(i)) == h)
            })
    }
}

#[cfg(test)]
mod tests;
