//! Job titles with their seniority and department (O*NET, ESCO), and the SPEC.md §2.1
//! seniorities and departments they map to.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;

use super::super::util::title_case;
use super::read_text;
use crate::dataset::format::JobTitleRow;

/// SPEC.md §2.1 seniorities.
pub const SENIORITIES: &[&str] = &[
    "Owner",
    "Founder",
    "Board Member",
    "C-Level",
    "Partner",
    "VP",
    "Head",
    "Director",
    "Manager",
    "Other",
];

/// SPEC.md §2.1 departments.
pub const DEPARTMENTS: &[&str] = &[
    "Accounting and Finance",
    "Board",
    "Business Support",
    "Customer Relations",
    "Design",
    "Editorial Personnel",
    "Engineering",
    "Founder/Owner",
    "Healthcare",
    "HR",
    "Legal",
    "Management",
    "Manufacturing",
    "Marketing and Advertising",
    "Operations",
    "PR and Communications",
    "Procurement",
    "Product",
    "Quality Control",
    "R&D",
    "Sales",
    "Security",
    "Supply Chain",
    "Other",
];

fn has_word(t: &str, w: &str) -> bool {
    t.split(|c: char| !c.is_alphanumeric()).any(|x| x == w)
}

/// One SPEC.md seniority for a job title, from its words (owner, founder, board, chief/CxO,
/// partner, VP, head, director, manager...); `Other` when none applies.
pub fn seniority_of(title: &str) -> &'static str {
    let t = title.to_lowercase();
    let cxo = [
        "ceo", "cfo", "cto", "coo", "cmo", "cio", "cro", "cpo", "cso", "cdo", "chro", "ciso",
    ];
    if has_word(&t, "owner") || t.contains("proprietor") {
        "Owner"
    } else if t.contains("founder") {
        "Founder"
    } else if t.contains("board member")
        || t.contains("board of directors")
        || t.contains("chairman")
        || t.contains("chairwoman")
        || t.contains("chairperson")
        || t.contains("board director")
        || t.contains("non-executive director")
    {
        "Board Member"
    } else if t.starts_with("chief ")
        || t.contains("chief executive")
        || cxo.iter().any(|c| has_word(&t, c))
    {
        "C-Level"
    } else if t.contains("vice president")
        || has_word(&t, "vp")
        || has_word(&t, "svp")
        || has_word(&t, "evp")
    {
        "VP"
    } else if has_word(&t, "president") {
        "C-Level"
    } else if has_word(&t, "partner") && !t.contains("partnership") {
        "Partner"
    } else if t.starts_with("head ") || t.contains("head of ") || t.ends_with(" chief") {
        "Head"
    } else if has_word(&t, "director") {
        "Director"
    } else if has_word(&t, "manager")
        || has_word(&t, "supervisor")
        || has_word(&t, "superintendent")
        || has_word(&t, "foreman")
        || has_word(&t, "forewoman")
        || has_word(&t, "lead")
        || has_word(&t, "team leader")
    {
        "Manager"
    } else {
        "Other"
    }
}

/// Department from title keywords, if any keyword is decisive.
fn department_by_words(t: &str) -> Option<&'static str> {
    let t = t.to_lowercase();
    let rules: &[(&[&str], &str)] = &[
        (&["founder", "owner"], "Founder/Owner"),
        (
            &[
                "board member",
                "board of directors",
                "chairman",
                "chairwoman",
                "non-executive",
            ],
            "Board",
        ),
        (
            &[
                "ceo",
                "chief executive",
                "coo",
                "chief operating",
                "general manager",
                "managing director",
            ],
            "Management",
        ),
        (
            &[
                "cfo",
                "chief financial",
                "accountant",
                "accounting",
                "finance",
                "financial",
                "controller",
                "treasur",
                "auditor",
                "tax ",
                "bookkeep",
                "payroll",
                "actuar",
                "credit analyst",
                "budget",
            ],
            "Accounting and Finance",
        ),
        (
            &[
                "cto",
                "chief technology",
                "software",
                "developer",
                "programmer",
                "devops",
                "engineer",
                "data scientist",
                "it ",
                "network",
                "systems admin",
                "database",
                "web ",
            ],
            "Engineering",
        ),
        (
            &[
                "cmo",
                "chief marketing",
                "marketing",
                "advertising",
                "seo",
                "brand",
                "growth",
                "media buyer",
                "copywriter",
            ],
            "Marketing and Advertising",
        ),
        (
            &[
                "chro",
                "human resources",
                "recruit",
                "talent",
                "hr ",
                "people operations",
                "benefits",
                "compensation",
                "training and development",
            ],
            "HR",
        ),
        (
            &[
                "legal",
                "counsel",
                "attorney",
                "lawyer",
                "paralegal",
                "compliance",
                "solicitor",
                "barrister",
                "clerk of court",
            ],
            "Legal",
        ),
        (
            &[
                "sales",
                "account executive",
                "business development",
                "account manager",
                "retail",
                "cashier",
                "salesperson",
                "sales representative",
                "real estate agent",
                "broker",
            ],
            "Sales",
        ),
        (
            &[
                "product manager",
                "product owner",
                "chief product",
                "product management",
            ],
            "Product",
        ),
        (
            &[
                "design",
                "ux",
                "ui ",
                "graphic",
                "illustrator",
                "art director",
                "animator",
            ],
            "Design",
        ),
        (
            &[
                "editor",
                "journalist",
                "reporter",
                "writer",
                "author",
                "columnist",
                "correspondent",
            ],
            "Editorial Personnel",
        ),
        (
            &["public relations", "communications", "spokes", "press "],
            "PR and Communications",
        ),
        (
            &["procurement", "purchasing", "buyer", "sourcing"],
            "Procurement",
        ),
        (
            &["quality", "inspector", "tester", "qa "],
            "Quality Control",
        ),
        (
            &[
                "supply chain",
                "logistic",
                "warehouse",
                "shipping",
                "freight",
                "dispatcher",
                "driver",
                "inventory",
                "distribution",
            ],
            "Supply Chain",
        ),
        (
            &["security", "guard", "police", "firefight", "ciso"],
            "Security",
        ),
        (&["research", "scientist", "laborator", "r&d"], "R&D"),
        (
            &[
                "customer",
                "client services",
                "call center",
                "help desk",
                "support specialist",
                "receptionist",
                "concierge",
            ],
            "Customer Relations",
        ),
        (
            &[
                "nurse",
                "physician",
                "doctor",
                "therap",
                "medical",
                "clinical",
                "surgeon",
                "dental",
                "pharmac",
                "health",
            ],
            "Healthcare",
        ),
        (
            &[
                "assistant",
                "secretary",
                "administrative",
                "office ",
                "clerk",
                "data entry",
            ],
            "Business Support",
        ),
        (
            &["operations", "facilities", "maintenance", "logistics"],
            "Operations",
        ),
        (
            &[
                "production",
                "assembler",
                "machinist",
                "manufactur",
                "welder",
                "fabricator",
                "operator",
            ],
            "Manufacturing",
        ),
        (
            &["president", "executive director", "executive officer"],
            "Management",
        ),
    ];
    let padded = format!(" {t} ");
    for (words, dep) in rules {
        if words.iter().any(|w| {
            if w.len() <= 4 && !w.ends_with(' ') {
                has_word(&t, w)
            } else {
                padded.contains(w)
            }
        }) {
            return Some(dep);
        }
    }
    None
}

/// Department from an O*NET SOC code (major group and a few detailed codes).
fn department_by_soc(soc: &str) -> &'static str {
    let major = &soc[..2.min(soc.len())];
    let minor = &soc[..7.min(soc.len())];
    match minor {
        "13-1071" | "13-1075" | "13-1141" | "13-1151" | "11-3121" | "11-3111" => return "HR",
        "13-1020" | "13-1023" | "11-3061" => return "Procurement",
        "11-2021" | "11-2011" | "13-1161" => return "Marketing and Advertising",
        "11-2022" => return "Sales",
        "11-2032" | "11-2033" | "27-3031" => return "PR and Communications",
        "11-3021" | "11-9041" => return "Engineering",
        "11-3031" | "13-2011" | "13-2051" | "13-2052" | "13-2061" | "13-2072" | "13-2082" => {
            return "Accounting and Finance";
        }
        "11-3071" | "13-1081" | "43-5071" | "53-7062" => return "Supply Chain",
        "11-9121" => return "R&D",
        "43-4051" | "43-4171" => return "Customer Relations",
        "51-9061" => return "Quality Control",
        "27-1021" | "27-1024" | "27-1025" | "27-1014" | "27-1011" => return "Design",
        "27-3041" | "27-3042" | "27-3043" | "27-3023" | "27-3022" => return "Editorial Personnel",
        _ => {}
    }
    match major {
        "11" => "Management",
        "13" => "Accounting and Finance",
        "15" | "17" => "Engineering",
        "19" => "R&D",
        "23" => "Legal",
        "27" => "Design",
        "29" | "31" => "Healthcare",
        "33" => "Security",
        "41" => "Sales",
        "43" => "Business Support",
        "51" => "Manufacturing",
        "53" => "Supply Chain",
        "35" | "37" | "45" | "47" | "49" => "Operations",
        _ => "Other",
    }
}

/// Department from an ESCO ISCO-08 group code.
fn department_by_isco(isco: &str) -> &'static str {
    let p = |n: usize| &isco[..n.min(isco.len())];
    match p(4) {
        "2421" | "2422" => return "Operations",
        "2423" | "2424" => return "HR",
        "2431" => return "Marketing and Advertising",
        "2432" => return "PR and Communications",
        "3323" => return "Procurement",
        "4222" | "4225" | "4226" => return "Customer Relations",
        "3115" | "3119" => return "Engineering",
        _ => {}
    }
    match p(3) {
        "241" | "331" => return "Accounting and Finance",
        "243" | "332" | "524" | "522" | "521" => return "Sales",
        "261" | "341" => return "Legal",
        "264" => return "Editorial Personnel",
        "216" | "265" | "343" => return "Design",
        "211" | "213" | "313" => return "R&D",
        "541" => return "Security",
        "432" | "833" | "834" | "933" => return "Supply Chain",
        "754" | "311" => return "Quality Control",
        _ => {}
    }
    match p(2) {
        "11" | "12" | "13" | "14" => "Management",
        "21" | "25" | "31" | "35" => "Engineering",
        "22" | "32" => "Healthcare",
        "26" | "23" => "Other",
        "24" | "33" | "41" | "42" | "43" | "44" => "Business Support",
        "51" | "53" => "Customer Relations",
        "52" => "Sales",
        "54" => "Security",
        "71" | "72" | "73" | "74" | "75" | "81" | "82" => "Manufacturing",
        "83" => "Supply Chain",
        _ => "Operations",
    }
}

/// The department of a title: decisive title words first, else the occupation's field.
pub fn department_of(title: &str, field: &'static str) -> &'static str {
    department_by_words(title).unwrap_or(field)
}

/// Explicit executive, founder, board and per-department leadership titles so that every
/// seniority and department has titles.
fn explicit_titles() -> Vec<JobTitleRow> {
    let mut out = Vec::new();
    let mut push = |t: &str, s: &str, d: &str| {
        out.push(JobTitleRow {
            title: t.into(),
            seniority: s.into(),
            department: d.into(),
        })
    };
    for (t, d) in [
        ("Chief Executive Officer", "Management"),
        ("CEO", "Management"),
        ("Chief Operating Officer", "Operations"),
        ("COO", "Operations"),
        ("Chief Financial Officer", "Accounting and Finance"),
        ("CFO", "Accounting and Finance"),
        ("Chief Technology Officer", "Engineering"),
        ("CTO", "Engineering"),
        ("Chief Marketing Officer", "Marketing and Advertising"),
        ("CMO", "Marketing and Advertising"),
        ("Chief Information Officer", "Engineering"),
        ("Chief Product Officer", "Product"),
        ("Chief Revenue Officer", "Sales"),
        ("Chief Sales Officer", "Sales"),
        ("Chief People Officer", "HR"),
        ("Chief Human Resources Officer", "HR"),
        ("Chief Legal Officer", "Legal"),
        ("General Counsel", "Legal"),
        ("Chief Design Officer", "Design"),
        ("Chief Security Officer", "Security"),
        ("Chief Information Security Officer", "Security"),
        ("Chief Medical Officer", "Healthcare"),
        ("Chief Scientific Officer", "R&D"),
        ("Chief Communications Officer", "PR and Communications"),
        ("Chief Procurement Officer", "Procurement"),
        ("Chief Supply Chain Officer", "Supply Chain"),
        ("Chief Quality Officer", "Quality Control"),
        ("Chief Customer Officer", "Customer Relations"),
        ("Chief Content Officer", "Editorial Personnel"),
        ("Chief Manufacturing Officer", "Manufacturing"),
        ("Chief of Staff", "Business Support"),
        ("President", "Management"),
    ] {
        push(t, "C-Level", d);
    }
    for t in [
        "Founder",
        "Co-Founder",
        "Founder & CEO",
        "Co-Founder & CTO",
        "Founding Partner",
        "Founder and Managing Director",
    ] {
        push(t, "Founder", "Founder/Owner");
    }
    for t in [
        "Owner",
        "Co-Owner",
        "Business Owner",
        "Owner and Operator",
        "Franchise Owner",
    ] {
        push(t, "Owner", "Founder/Owner");
    }
    for t in [
        "Board Member",
        "Chairman of the Board",
        "Non-Executive Director",
        "Member of the Board of Directors",
        "Independent Board Member",
        "Chairwoman",
    ] {
        push(t, "Board Member", "Board");
    }
    for (t, d) in [
        ("Managing Partner", "Management"),
        ("Partner", "Management"),
        ("Senior Partner", "Management"),
        ("Equity Partner", "Legal"),
        ("Audit Partner", "Accounting and Finance"),
        ("Tax Partner", "Accounting and Finance"),
    ] {
        push(t, "Partner", d);
    }
    let fields: &[(&str, &str)] = &[
        ("Finance", "Accounting and Finance"),
        ("Business Support", "Business Support"),
        ("Customer Success", "Customer Relations"),
        ("Design", "Design"),
        ("Editorial", "Editorial Personnel"),
        ("Engineering", "Engineering"),
        ("Clinical Operations", "Healthcare"),
        ("People", "HR"),
        ("Legal", "Legal"),
        ("Strategy", "Management"),
        ("Manufacturing", "Manufacturing"),
        ("Marketing", "Marketing and Advertising"),
        ("Operations", "Operations"),
        ("Communications", "PR and Communications"),
        ("Procurement", "Procurement"),
        ("Product", "Product"),
        ("Quality", "Quality Control"),
        ("Research and Development", "R&D"),
        ("Sales", "Sales"),
        ("Security", "Security"),
        ("Supply Chain", "Supply Chain"),
        ("Special Projects", "Other"),
    ];
    for (f, d) in fields {
        push(&format!("VP of {f}"), "VP", d);
        push(&format!("Senior Vice President, {f}"), "VP", d);
        push(&format!("Head of {f}"), "Head", d);
        push(&format!("Director of {f}"), "Director", d);
        push(&format!("{f} Manager"), "Manager", d);
        push(&format!("Senior {f} Specialist"), "Other", d);
    }
    for (t, d) in [
        ("Board Secretary", "Board"),
        ("Board Liaison", "Board"),
        ("Executive Assistant to the Founder", "Founder/Owner"),
    ] {
        push(t, "Other", d);
    }
    out
}

/// Job titles (explicit leadership titles, O*NET sample of reported titles and alternate titles,
/// ESCO preferred labels), de-duplicated case-insensitively, at most `max`.
pub fn load_job_titles(data: &Path, max: usize) -> anyhow::Result<Vec<JobTitleRow>> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut add = |row: JobTitleRow, out: &mut Vec<JobTitleRow>| {
        let key = row.title.to_lowercase();
        if row.title.len() >= 3 && row.title.len() <= 70 && seen.insert(key) {
            out.push(row);
        }
    };
    for r in explicit_titles() {
        add(r, &mut out);
    }
    let onet = |row: (&str, &str),
                out: &mut Vec<JobTitleRow>,
                add: &mut dyn FnMut(JobTitleRow, &mut Vec<JobTitleRow>)| {
        let (soc, title) = row;
        // "Chief Operating Officer (COO)" -> "Chief Operating Officer"
        let title = title.split(" (").next().unwrap_or(title).trim();
        if title.is_empty() || title.contains('(') || title.contains(')') {
            return;
        }
        let field = department_by_soc(soc);
        add(
            JobTitleRow {
                title: title.to_string(),
                seniority: seniority_of(title).into(),
                department: department_of(title, field).into(),
            },
            out,
        );
    };
    let sample = read_text(&data.join("onet-29.2/Sample_of_Reported_Titles.txt"))?;
    for line in sample.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 2 {
            onet((f[0], f[1]), &mut out, &mut add);
        }
    }
    // O*NET occupation titles, singular ("Data Scientists" -> "Data Scientist"): the most common
    // names of jobs, some of which no sample title spells exactly.
    let occupations = read_text(&data.join("onet-29.2/Occupation_Data.txt"))?;
    for line in occupations.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 2 && !f[1].contains(',') && !f[1].contains("All Other") {
            let title = singular_title(f[1]);
            onet((f[0], title.as_str()), &mut out, &mut add);
        }
    }
    // ESCO preferred labels (title-cased), then O*NET alternate titles until `max`.
    let esco_path = data.join("esco-v1.1.1/tabiya/occupations.csv");
    let mut rdr = csv::Reader::from_path(&esco_path)
        .with_context(|| format!("reading {}", esco_path.display()))?;
    let headers = rdr.headers()?.clone();
    let col = |n: &str| headers.iter().position(|h| h == n);
    let (ci, cl) = (
        col("ISCOGROUPCODE").context("esco: ISCOGROUPCODE")?,
        col("PREFERREDLABEL").context("esco: PREFERREDLABEL")?,
    );
    let mut esco_rows = Vec::new();
    for rec in rdr.records() {
        let rec = rec?;
        esco_rows.push((rec[ci].to_string(), rec[cl].to_string()));
    }
    for (isco, label) in &esco_rows {
        if out.len() >= max * 4 / 5 {
            break;
        }
        let title = title_case(label.trim());
        let field = department_by_isco(isco);
        add(
            JobTitleRow {
                title: title.clone(),
                seniority: seniority_of(&title).into(),
                department: department_of(&title, field).into(),
            },
            &mut out,
        );
    }
    let alt = read_text(&data.join("onet-29.2/Alternate_Titles.txt"))?;
    for line in alt.lines().skip(1) {
        if out.len() >= max {
            break;
        }
        let f: Vec<&str> = line.split('\t').collect();
        // Only titles naming a leadership level, to enrich the rarer seniorities.
        if f.len() >= 2 && seniority_of(f[1]) != "Other" {
            onet((f[0], f[1]), &mut out, &mut add);
        }
    }
    out.sort_by(|a, b| a.title.cmp(&b.title));
    Ok(out)
}
/// The singular of an O*NET occupation title, by its last word: `Data Scientists` ->
/// `Data Scientist`, `Secretaries` -> `Secretary`, `Coaches` -> `Coach`, `Chiefs` -> `Chief`.
fn singular_title(title: &str) -> String {
    let (head, last) = match title.rsplit_once(' ') {
        Some((h, l)) => (Some(h), l),
        None => (None, title),
    };
    let one = if let Some(stem) = last.strip_suffix("ies") {
        format!("{stem}y")
    } else if ["ches", "shes", "sses", "xes"]
        .iter()
        .any(|e| last.ends_with(e))
    {
        last[..last.len() - 2].to_string()
    } else if last.ends_with('s') && !last.ends_with("ss") && last.len() > 3 {
        last[..last.len() - 1].to_string()
    } else {
        last.to_string()
    };
    match head {
        Some(h) => format!("{h} {one}"),
        None => one,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seniority_mapping() {
        assert_eq!(seniority_of("Chief Executive Officer"), "C-Level");
        assert_eq!(seniority_of("CFO"), "C-Level");
        assert_eq!(seniority_of("Vice President of Sales"), "VP");
        assert_eq!(seniority_of("Head of Marketing"), "Head");
        assert_eq!(seniority_of("Sales Director"), "Director");
        assert_eq!(seniority_of("Store Manager"), "Manager");
        assert_eq!(seniority_of("Co-Founder"), "Founder");
        assert_eq!(seniority_of("Business Owner"), "Owner");
        assert_eq!(seniority_of("Chairman of the Board"), "Board Member");
        assert_eq!(seniority_of("Managing Partner"), "Partner");
        assert_eq!(seniority_of("Software Engineer"), "Other");
        assert_eq!(seniority_of("Partnerships Associate"), "Other");
        assert_eq!(seniority_of("Early Head Start Director"), "Director");
        assert_eq!(seniority_of("Well Head Pumper"), "Other");
        assert_eq!(seniority_of("Fire Chief"), "Head");
    }

    #[test]
    fn department_mapping() {
        assert_eq!(department_of("Software Developer", "Other"), "Engineering");
        assert_eq!(department_of("Registered Nurse", "Other"), "Healthcare");
        assert_eq!(
            department_of("Marketing Manager", "Management"),
            "Marketing and Advertising"
        );
        assert_eq!(department_of("Welder", "Manufacturing"), "Manufacturing");
        assert_eq!(department_by_soc("41-2031.00"), "Sales");
        assert_eq!(
            department_of("Vice President of Sales", "Management"),
            "Sales"
        );
        assert_eq!(
            department_of("Chief Sustainability Officer", "Management"),
            "Management"
        );
    }
}

#[cfg(test)]
mod singular_tests {
    use super::singular_title;

    #[test]
    fn occupation_titles_become_singular() {
        assert_eq!(singular_title("Data Scientists"), "Data Scientist");
        assert_eq!(
            singular_title("Executive Secretaries"),
            "Executive Secretary"
        );
        assert_eq!(singular_title("Coaches"), "Coach");
        assert_eq!(singular_title("Chief Executives"), "Chief Executive");
        assert_eq!(singular_title("Bus"), "Bus");
        assert_eq!(singular_title("Actuaries"), "Actuary");
        assert_eq!(singular_title("Software Developers"), "Software Developer");
    }
}
