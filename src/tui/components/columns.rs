//! Column layout of the results table (issue 8, "Layout"): every column has a priority and a
//! minimum width. Value columns (country code, size range, year, counts, relevance) are as wide
//! as their widest visible value, so a number is never cut; text columns (names, titles) share
//! what is left, never below their minimum. When the pane is too narrow for every column at its
//! minimum, the columns of lowest priority are left out instead of squeezing the others.
use unicode_width::UnicodeWidthStr;

use crate::tui::msg::ResultRow;
use crate::tui::schema::Kind;

/// How a column is sized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizing {
    /// As wide as its widest visible value (and its title): never cut.
    Value,
    /// Text that may be cut with `…`: at least `min` columns, then a `weight` share of the rest.
    Text {
        /// Narrowest useful width.
        min: u16,
        /// Share of the remaining width.
        weight: u16,
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

const fn text(index: usize, priority: u8, min: u16, weight: u16) -> Col {
    Col {
        index,
        priority,
        sizing: Sizing::Text { min, weight },
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
pub fn columns(kind: Kind) -> &'static [Col] {
    const COMPANIES: [Col; 8] = [
        text(0, 0, 12, 3),
        text(1, 1, 12, 3),
        value(2, 3),
        value(3, 4),
        text(4, 6, 8, 2),
        value(5, 5),
        value(6, 7),
        value(7, 2),
    ];
    // The email / phone column is kept right after the name: it is what a reveal fills in. It
    // is text (an address too long for a narrow pane is shortened, the details pane has it
    // whole) so that it is never dropped, and it pushes the company out first.
    const PEOPLE: [Col; 8] = [
        text(0, 0, 12, 3),
        text(1, 3, 10, 4),
        text(2, 2, 10, 3),
        value(3, 6),
        text(4, 7, 8, 2),
        text(5, 1, 16, 8),
        value(6, 4),
        value(7, 5),
    ];
    match kind {
        Kind::Companies => &COMPANIES,
        Kind::People => &PEOPLE,
    }
}

/// The shown columns and their widths for a table `width` columns wide (without the
/// selection mark), `spacing` between columns, over the `visible` rows and the `titles`.
/// Returns `(cell index, width)` in display order.
pub fn layout(
    kind: Kind,
    titles: &[&str],
    visible: &[&ResultRow],
    width: u16,
    spacing: u16,
) -> Vec<(usize, u16)> {
    let cols = columns(kind);
    let natural = |c: &Col| -> u16 {
        let title = titles.get(c.index).map_or(0, |t| t.width());
        let cells = visible
            .iter()
            .map(|r| r.cells.get(c.index).map_or(0, |s| s.width()))
            .max()
            .unwrap_or(0);
        title.max(cells).min(u16::MAX as usize) as u16
    };
    let need = |c: &Col| -> u16 {
        match c.sizing {
            Sizing::Value => natural(c),
            Sizing::Text { min, .. } => min.min(natural(c).max(1)),
        }
    };
    let mut shown: Vec<&Col> = cols.iter().collect();
    loop {
        let total: u32 = shown.iter().map(|c| u32::from(need(c))).sum::<u32>()
            + u32::from(spacing) * shown.len().saturating_sub(1) as u32;
        if total <= u32::from(width) || shown.len() <= 1 {
            break;
        }
        let drop = shown
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.priority)
            .map(|(i, _)| i)
            .unwrap_or(0);
        shown.remove(drop);
    }
    let used: u32 = shown.iter().map(|c| u32::from(need(c))).sum::<u32>()
        + u32::from(spacing) * shown.len().saturating_sub(1) as u32;
    let mut extra = u32::from(width).saturating_sub(used);
    let mut widths: Vec<u16> = shown.iter().map(|c| need(c)).collect();
    // Text columns grow toward their widest value, by weight; what they cannot use is left.
    let weights: u32 = shown
        .iter()
        .map(|c| match c.sizing {
            Sizing::Text { weight, .. } => u32::from(weight),
            Sizing::Value => 0,
        })
        .sum();
    if weights > 0 {
        let pool = extra;
        for (i, c) in shown.iter().enumerate() {
            if let Sizing::Text { weight, .. } = c.sizing {
                let share = (pool * u32::from(weight)).checked_div(weights).unwrap_or(0);
                let want = u32::from(natural(c).saturating_sub(widths[i]));
                let add = share.min(want).min(extra);
                widths[i] += add as u16;
                extra -= add;
            }
        }
        // Whatever is left goes to the first text column that still has text to show.
        for (i, c) in shown.iter().enumerate() {
            if extra == 0 {
                break;
            }
            if matches!(c.sizing, Sizing::Text { .. }) {
                let want = u32::from(natural(c).saturating_sub(widths[i]));
                let add = want.min(extra);
                widths[i] += add as u16;
                extra -= add;
            }
        }
    }
    shown.iter().map(|c| c.index).zip(widths).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::msg::Record;

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
        let wide = layout(
            Kind::Companies,
            crate::tui::records::columns(Kind::Companies),
            &rows,
            150,
            1,
        );
        assert_eq!(wide.len(), 8);
        assert_eq!(wide[3], (3, 12), "50001-100000 is 12 wide");
        // 46 columns (80×24 screen): names keep their minimum, values stay whole, the
        // least important columns are left out.
        let narrow = layout(
            Kind::Companies,
            crate::tui::records::columns(Kind::Companies),
            &rows,
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
}
