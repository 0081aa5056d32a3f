//! Columns of the results table. Layout (issue 8, "Layout"): every column has a priority and
//! a minimum width. Value columns (country code, size range, year, counts, relevance) are as
//! wide as their widest value, so a number is never cut; text columns (names, titles) share
//! what is left, never below their minimum or their title. When the pane is too narrow for
//! every column at its minimum, the columns of lowest priority are left out instead of
//! squeezing the others. Widths are measured over every loaded row, not the rows on screen, so
//! they stay put from page to page (issue 19, "Columns").
//!
//! The user's choice (issue 19): which columns each tab shows and in what order
//! ([`ColumnSet`], kept in `columns.json` in the config directory), and the sort of the loaded
//! rows by one column ([`Sort`], [`compare`]).
use std::cmp::Ordering;
use std::path::Path;

use serde::{Deserialize, Serialize};
use unicode_width::UnicodeWidthStr;

use crate::msg::ResultRow;
use crate::records;
use crate::schema::SearchSubject;

/// How a column is sized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizing {
    /// As wide as its widest visible value (and its title): never cut.
    Value,
    /// Text that may be cut with `…`: at least `min` columns (and its title), then, in the
    /// order of the columns' priorities, up to its widest value while there is room.
    Text {
        /// Narrowest useful width.
        min: u16,
    },
    /// What a reveal fills (the email / phone column; issue 38): shown whole up to `max`
    /// columns, so an address is never cut while a less important column is shown; cut to
    /// `min` (as text) only when the columns more important than it leave no room. Empty, it
    /// still grows to a comfortable width when there is room, so a reveal does not move it.
    Whole {
        /// Narrowest useful width when it has to be cut.
        min: u16,
        /// Widest it is kept whole to.
        max: u16,
    },
}

/// One column of a results tab, in the order of `records::columns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Col {
    /// Its index in the row's cells.
    pub index: usize,
    /// 0 is kept longest; the highest number is the first left out.
    pub priority: u8,
    /// How it is sized.
    pub sizing: Sizing,
}

const fn text(index: usize, priority: u8, min: u16) -> Col {
    Col {
        index,
        priority,
        sizing: Sizing::Text { min },
    }
}

const fn value(index: usize, priority: u8) -> Col {
    Col {
        index,
        priority,
        sizing: Sizing::Value,
    }
}

/// The columns of a tab (cells as built by `records`): companies name, domain, cc, size,
/// industry, year, employees, rel.; people name, jobTitle, company, cc, seniorities,
/// email / phone, rel., revealed.
pub fn columns(kind: SearchSubject) -> &'static [Col] {
    const COMPANIES: [Col; 11] = [
        text(0, 0, 12),
        text(1, 1, 12),
        value(2, 3),
        value(3, 4),
        text(4, 6, 8),
        value(5, 5),
        value(6, 7),
        value(7, 2),
        // segment, fit: shown once an attribution fills them (hidden by default).
        text(8, 8, 10),
        value(9, 3),
        // new: shown once a saved set's run marks rows new (hidden by default).
        value(10, 2),
    ];
    // The email / phone column is kept right after the name: it is what a reveal fills in. It
    // is text (an address too long for a narrow pane is shortened, the details pane has it
    // whole) so that it is never dropped, and it pushes the company out first.
    const PEOPLE: [Col; 9] = [
        text(0, 0, 12),
        text(1, 3, 10),
        text(2, 2, 10),
        value(3, 6),
        text(4, 7, 8),
        Col {
            index: 5,
            priority: 1,
            sizing: Sizing::Whole { min: 16, max: 48 },
        },
        value(6, 4),
        value(7, 5),
        // new: shown once a saved set's run marks rows new (hidden by default).
        value(8, 2),
    ];
    match kind {
        SearchSubject::Companies => &COMPANIES,
        SearchSubject::People => &PEOPLE,
    }
}

/// Width a text column grows to in the first pass of [`layout`] (then to its widest value).
const COMFORTABLE: u16 = 28;

/// The widest cell of each column (display width) over `rows`, one per entry of `titles`; 0
/// for a column empty in every row. [`layout`] sizes from them (and the titles).
pub fn natural_widths<'a>(
    titles: &[&str],
    rows: impl IntoIterator<Item = &'a ResultRow>,
) -> Vec<u16> {
    let mut w: Vec<u16> = vec![0; titles.len()];
    for r in rows {
        for (i, c) in r.cells.iter().enumerate().take(w.len()) {
            w[i] = w[i].max(c.width().min(u16::MAX as usize) as u16);
        }
    }
    w
}

/// The shown columns and their widths for a table `width` columns wide (without the
/// selection mark), `spacing` between columns: the columns of `kind` that `shown` lists, in
/// its order, sized from `cells` ([`natural_widths`], indexed by cell) and `titles`. When they
/// do not all fit, columns empty in every loaded row go first, then by priority; `keep` (the
/// column sorted by) is never left out. Returns `(cell index, width)` in display order.
pub fn layout(
    kind: SearchSubject,
    shown: &[usize],
    titles: &[&str],
    cells: &[u16],
    keep: Option<usize>,
    width: u16,
    spacing: u16,
) -> Vec<(usize, u16)> {
    let cols = columns(kind);
    let title = |c: &Col| -> u16 { titles.get(c.index).map_or(0, |t| t.width() as u16) };
    let empty = |c: &Col| cells.get(c.index).copied().unwrap_or(0) == 0;
    let natural = |c: &Col| -> u16 { cells.get(c.index).copied().unwrap_or(0).max(title(c)) };
    // Whole columns cut to their minimum (the columns more important than them left no room).
    let mut cut: Vec<usize> = Vec::new();
    let need = |c: &Col, cut: &[usize]| -> u16 {
        match c.sizing {
            Sizing::Value => natural(c),
            Sizing::Whole { max, .. } if !cut.contains(&c.index) => natural(c).min(max),
            // A text column shown shows its whole title.
            Sizing::Text { min, .. } | Sizing::Whole { min, .. } => {
                min.min(natural(c).max(1)).max(title(c))
            }
        }
    };
    let mut shown: Vec<&Col> = shown
        .iter()
        .filter_map(|i| cols.iter().find(|c| c.index == *i))
        .collect();
    let used = |shown: &[&Col], cut: &[usize]| -> u32 {
        shown.iter().map(|c| u32::from(need(c, cut))).sum::<u32>()
            + u32::from(spacing) * shown.len().saturating_sub(1) as u32
    };
    loop {
        if used(&shown, &cut) <= u32::from(width) || shown.len() <= 1 {
            break;
        }
        let Some(drop) = shown
            .iter()
            .enumerate()
            .filter(|(_, c)| Some(c.index) != keep)
            .max_by_key(|(_, c)| (empty(c), c.priority))
            .map(|(i, _)| i)
        else {
            break;
        };
        // Before a column as important as a whole one (or the whole one itself) goes, the
        // whole one is cut; a less important or empty column goes first.
        let d = shown[drop];
        let whole = shown.iter().find(|c| {
            matches!(c.sizing, Sizing::Whole { .. })
                && !cut.contains(&c.index)
                && !empty(d)
                && d.priority <= c.priority
        });
        match whole {
            Some(w) => cut.push(w.index),
            None => {
                shown.remove(drop);
            }
        }
    }
    let mut extra = u32::from(width).saturating_sub(used(&shown, &cut));
    let mut widths: Vec<u16> = shown.iter().map(|c| need(c, &cut)).collect();
    // Text columns grow in the order of their priority, in two passes: first each up to a
    // comfortable width (a name, a domain, an email of usual length whole), then to their
    // widest value: the
    // email (or the domain) is shown whole before a job title or an industry is. What no
    // column can use is left.
    let mut order: Vec<usize> = (0..shown.len())
        .filter(|&i| !matches!(shown[i].sizing, Sizing::Value))
        .collect();
    order.sort_by_key(|&i| shown[i].priority);
    for cap in [COMFORTABLE, u16::MAX] {
        for &i in &order {
            let want = u32::from(natural(shown[i]).min(cap).saturating_sub(widths[i]));
            let add = want.min(extra);
            widths[i] += add as u16;
            extra -= add;
        }
    }
    // What is left lets a whole column reach a comfortable width even while it is empty, so a
    // reveal does not move the table when there is room.
    for &i in &order {
        if matches!(shown[i].sizing, Sizing::Whole { .. }) {
            let add = u32::from(COMFORTABLE.saturating_sub(widths[i])).min(extra);
            widths[i] += add as u16;
            extra -= add;
        }
    }
    shown.iter().map(|c| c.index).zip(widths).collect()
}

/// One column of a tab as the user chose it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnChoice {
    /// Its title ([`records::columns`]), by which it is kept in the file.
    pub column: String,
    /// Shown in the table.
    pub shown: bool,
}

/// Which columns each results tab shows, in what order (issue 19, "Columns"): every column of
/// the tab, once, in display order. Kept in `columns.json` of the config directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnSet {
    /// The companies tab.
    pub companies: Vec<ColumnChoice>,
    /// The people tab.
    pub people: Vec<ColumnChoice>,
}

/// Columns hidden until something fills them: a segmentation's attribution fills `segment`
/// and `fit` (and shows them), a saved set's run `new`.
pub const HIDDEN_BY_DEFAULT: [&str; 3] = ["segment", "fit", "new"];

impl Default for ColumnSet {
    /// Every column shown, in the table's order, but [`HIDDEN_BY_DEFAULT`].
    fn default() -> ColumnSet {
        let all = |kind| {
            records::columns(kind)
                .iter()
                .map(|t| ColumnChoice {
                    column: t.to_string(),
                    shown: !HIDDEN_BY_DEFAULT.contains(t),
                })
                .collect()
        };
        ColumnSet {
            companies: all(SearchSubject::Companies),
            people: all(SearchSubject::People),
        }
    }
}

impl ColumnSet {
    /// The choices of the tab of `kind`.
    pub fn of(&self, kind: SearchSubject) -> &Vec<ColumnChoice> {
        match kind {
            SearchSubject::Companies => &self.companies,
            SearchSubject::People => &self.people,
        }
    }

    /// The choices of the tab of `kind`, to change.
    pub fn of_mut(&mut self, kind: SearchSubject) -> &mut Vec<ColumnChoice> {
        match kind {
            SearchSubject::Companies => &mut self.companies,
            SearchSubject::People => &mut self.people,
        }
    }

    /// The cell indexes of the shown columns of `kind`, in display order.
    pub fn shown(&self, kind: SearchSubject) -> Vec<usize> {
        let titles = records::columns(kind);
        self.of(kind)
            .iter()
            .filter(|c| c.shown)
            .filter_map(|c| titles.iter().position(|t| *t == c.column))
            .collect()
    }

    /// Shows the columns titled `titles` of `kind` (an attribution filled them).
    pub fn show(&mut self, kind: SearchSubject, titles: &[&str]) {
        for c in self.of_mut(kind) {
            if titles.contains(&c.column.as_str()) {
                c.shown = true;
            }
        }
    }

    /// Brings a set read from a file in line with the columns of this version: unknown titles
    /// are dropped, repeats kept once, missing columns added at the end (shown, but
    /// [`HIDDEN_BY_DEFAULT`]).
    fn normalized(mut self) -> ColumnSet {
        for kind in [SearchSubject::Companies, SearchSubject::People] {
            let titles = records::columns(kind);
            let list = self.of_mut(kind);
            let mut seen = std::collections::HashSet::new();
            list.retain(|c| titles.contains(&c.column.as_str()) && seen.insert(c.column.clone()));
            for t in titles {
                if !list.iter().any(|c| c.column == *t) {
                    list.push(ColumnChoice {
                        column: t.to_string(),
                        shown: !HIDDEN_BY_DEFAULT.contains(t),
                    });
                }
            }
        }
        self
    }

    /// Reads `path`; a missing file is the default. Errors name the file (and the line and
    /// column of bad JSON); the caller keeps the default then.
    pub fn load(path: &Path) -> Result<ColumnSet, String> {
        match std::fs::read(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ColumnSet::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
            Ok(bytes) => serde_json::from_slice::<ColumnSet>(&bytes)
                .map(ColumnSet::normalized)
                .map_err(|e| format!("{}: {e}", path.display())),
        }
    }

    /// Writes the set to `path` atomically (pretty JSON). Errors name the file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_vec_pretty(self).map_err(|e| e.to_string())?;
        prospect_common::fsutil::write_atomic(path, &text, prospect_common::fsutil::Access::Shared)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The sort of a tab's loaded rows (issue 19, "Columns"): by the cell of one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    /// The cell index of the column.
    pub column: usize,
    /// Largest first.
    pub descending: bool,
}

/// Compares two cells as a person reads them: when both start with a number (`"1,200"`,
/// `"51-200"`, `"1998"`) by that number, else as text ignoring case; empty cells sort last
/// whatever the direction (the caller reverses only non-empty ones).
pub fn compare(a: &str, b: &str) -> Ordering {
    fn number(s: &str) -> Option<f64> {
        let digits: String = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
            .filter(|c| *c != ',')
            .collect();
        digits.parse().ok()
    }
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => a.to_lowercase().cmp(&b.to_lowercase()),
    }
}

/// `rows` (the loaded rows of a tab, as `(page, row)` positions with their cells) in the
/// order of `sort`: stable, empty cells last.
pub fn sorted_order(rows: &[(usize, usize, &ResultRow)], sort: Sort) -> Vec<(usize, usize)> {
    let mut v: Vec<&(usize, usize, &ResultRow)> = rows.iter().collect();
    let cell = |r: &ResultRow| -> String {
        r.cells
            .get(sort.column)
            .map(|c| c.trim().to_string())
            .unwrap_or_default()
    };
    v.sort_by(|a, b| {
        let (x, y) = (cell(a.2), cell(b.2));
        match (x.is_empty(), y.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if sort.descending => compare(&y, &x),
            _ => compare(&x, &y),
        }
    });
    v.into_iter().map(|(p, i, _)| (*p, *i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::Record;

    fn row(cells: &[&str]) -> ResultRow {
        ResultRow {
            cells: cells.iter().map(|s| s.to_string()).collect(),
            record: Record::Company {
                company: Default::default(),
                relevance: None,
                score: None,
            },
        }
    }

    #[test]
    fn values_are_never_cut_and_low_priority_columns_go_first() {
        let owned = [row(&[
            "Very Long Company Name Incorporated",
            "very-long-domain-name.example",
            "de",
            "50001-100000",
            "Software Development",
            "1998",
            "120000",
            "A",
        ])];
        let rows: Vec<&ResultRow> = owned.iter().collect();
        // Wide: every column, the size range whole.
        let titles = crate::records::columns(SearchSubject::Companies);
        let natural = natural_widths(titles, rows.iter().copied());
        let all: Vec<usize> = (0..8).collect();
        let wide = layout(
            SearchSubject::Companies,
            &all,
            titles,
            &natural,
            None,
            150,
            1,
        );
        assert_eq!(wide.len(), 8);
        assert_eq!(wide[3], (3, 12), "50001-100000 is 12 wide");
        // 46 columns (80×24 screen): names keep their minimum, values stay whole, the
        // least important columns are left out.
        let narrow = layout(
            SearchSubject::Companies,
            &all,
            titles,
            &natural,
            None,
            46,
            1,
        );
        let idx: Vec<usize> = narrow.iter().map(|c| c.0).collect();
        assert_eq!(idx, vec![0, 1, 2, 3, 7], "{narrow:?}");
        assert!(narrow[0].1 >= 12 && narrow[1].1 >= 12, "{narrow:?}");
        assert_eq!(narrow[3].1, 12);
        let total: u16 = narrow.iter().map(|c| c.1).sum::<u16>() + narrow.len() as u16 - 1;
        assert!(total <= 46);
    }

    fn person(email: &str) -> ResultRow {
        row(&[
            "Karen Johnson",
            "Chief Executive Officer",
            "Google",
            "us",
            "C-Level",
            email,
            "",
            if email.is_empty() { "" } else { "email" },
        ])
    }

    /// Issue 38: the people table of a 160-column screen (92 for the results) shows a revealed
    /// 45-character address whole, leaving out the empty `rel.` column and then the least
    /// important ones; on an 80-column screen (46) it is cut, never dropped; before the reveal,
    /// in a pane with room to spare, the empty column already has a comfortable width, so the
    /// reveal does not move it.
    #[test]
    fn a_revealed_address_is_shown_whole_before_less_important_columns() {
        let titles = crate::records::columns(SearchSubject::People);
        let all: Vec<usize> = (0..8).collect();
        let address = "karen.johnson-hamilton@google-subsidiary.example";
        let address = &address[..45];
        let lay = |email: &str, width| {
            let owned = [person(email), person("")];
            let natural = natural_widths(titles, owned.iter());
            layout(
                SearchSubject::People,
                &all,
                titles,
                &natural,
                None,
                width,
                1,
            )
        };
        let wide = lay(address, 92);
        let email = wide.iter().find(|c| c.0 == 5).expect("the email column");
        assert!(email.1 >= 45, "{wide:?}");
        assert!(
            !wide.iter().any(|c| c.0 == 6),
            "the empty rel. goes: {wide:?}"
        );
        let total: u16 = wide.iter().map(|c| c.1).sum::<u16>() + wide.len() as u16 - 1;
        assert!(total <= 92, "{wide:?}");
        let narrow = lay(address, 46);
        let email = narrow.iter().find(|c| c.0 == 5).expect("cut, not dropped");
        assert!(email.1 >= 16 && email.1 < 45, "{narrow:?}");
        let before = lay("", 140);
        let email = before.iter().find(|c| c.0 == 5).unwrap();
        assert!(email.1 >= COMFORTABLE, "{before:?}");
    }
}
