//! Hand-written SVG line charts: x = slot, y = value, one line per host.

use std::fmt::Write as _;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 64.0;
/// Line colours, one per series in order (colour-blind friendly "Tableau 10" tones).
const COLOURS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
];
/// Series with at most this many points also get a dot per point, so sparse data shows.
const DOTS_UP_TO: usize = 300;

/// One line: a label (the host id) and its `(slot, value)` points sorted by slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Legend text.
    pub label: String,
    /// Points sorted by slot.
    pub points: Vec<(u64, f64)>,
}

/// Escapes text for SVG content and attribute values.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `range`.
fn nice_step(range: f64, count: f64) -> f64 {
    let raw = (range / count).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw);
    step.unwrap_or(10.0 * magnitude)
}

/// Formats a tick value with as many decimals as `step` needs.
fn tick_label(value: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{value:.decimals$}")
}

/// Renders the chart. `lines` must hold at least one point (the caller checks).
pub fn render(title: &str, y_label: &str, lines: &[Line]) -> String {
    let all = lines.iter().flat_map(|l| l.points.iter());
    let (mut x_min, mut x_max, mut y_min, mut y_max) =
        (u64::MAX, 0u64, f64::INFINITY, f64::NEG_INFINITY);
    for &(x, y) in all {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if x_min > x_max {
        (x_min, x_max, y_min, y_max) = (0, 1, 0.0, 1.0);
    }
    // Zero-based when all values are non-negative: a per-slot cost reads best from zero.
    let y_min = if y_min >= 0.0 { 0.0 } else { y_min };
    let y_step = nice_step((y_max - y_min).max(1e-9), 5.0);
    let y_lo = (y_min / y_step).floor() * y_step;
    let y_hi = ((y_max / y_step).ceil() * y_step).max(y_lo + y_step);
    let x_span = (x_max - x_min).max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let sx = |x: u64| LEFT + (x.saturating_sub(x_min)) as f64 / x_span * plot_w;
    let sy = |y: f64| TOP + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h;

    let mut svg =
        String::with_capacity(4096 + lines.iter().map(|l| l.points.len() * 24).sum::<usize>());
    // `write!` into a String cannot fail; results are ignored for that reason.
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">{}</text>\n",
        WIDTH / 2.0,
        xml(title)
    );
    // Horizontal grid and y ticks.
    let mut y = y_lo;
    while y <= y_hi + y_step / 2.0 {
        let py = sy(y);
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            py + 4.0,
            tick_label(y, y_step)
        );
        y += y_step;
    }
    // x ticks at nice slot numbers.
    let x_step = nice_step(x_span, 6.0).max(1.0);
    let mut x = (x_min as f64 / x_step).ceil() * x_step;
    while x <= x_max as f64 {
        let px = sx(x as u64);
        let _ = writeln!(
            svg,
            "<line x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#999\"/>\
             <text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            TOP + plot_h,
            TOP + plot_h + 5.0,
            TOP + plot_h + 18.0,
            x as u64
        );
        x += x_step;
    }
    let _ = write!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#333\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">slot</text>\n\
         <text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
        LEFT + plot_w / 2.0,
        HEIGHT - 16.0,
        TOP + plot_h / 2.0,
        xml(y_label)
    );
    for (i, line) in lines.iter().enumerate() {
        let colour = COLOURS.get(i % COLOURS.len()).copied().unwrap_or("#000");
        svg.push_str("<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"");
        svg.push_str(colour);
        svg.push_str("\" points=\"");
        for &(x, y) in &line.points {
            let _ = write!(svg, "{:.1},{:.1} ", sx(x), sy(y));
        }
        svg.push_str("\"/>\n");
        if line.points.len() <= DOTS_UP_TO {
            for &(x, y) in &line.points {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{colour}\"/>",
                    sx(x),
                    sy(y)
                );
            }
        }
    }
    // Legend box, so the legend stays readable over the lines under it.
    let _ = writeln!(
        svg,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"260\" height=\"{:.1}\" fill=\"white\" \
         fill-opacity=\"0.85\" stroke=\"#ccc\"/>",
        LEFT + 4.0,
        TOP + 2.0,
        16.0 * lines.len() as f64 + 6.0
    );
    for (i, line) in lines.iter().enumerate() {
        let colour = COLOURS.get(i % COLOURS.len()).copied().unwrap_or("#000");
        let ly = TOP + 14.0 + 16.0 * i as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{} ({} slots)</text>",
            LEFT + 10.0,
            ly - 9.0,
            LEFT + 26.0,
            ly,
            xml(&line.label),
            line.points.len()
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(100.0, 5.0), 20.0);
        assert_eq!(nice_step(7.0, 5.0), 2.0);
        assert_eq!(nice_step(0.3, 5.0), 0.1);
        assert_eq!(tick_label(0.30000000000000004, 0.1), "0.3");
        assert_eq!(tick_label(1500.0, 500.0), "1500");
    }

    #[test]
    fn renders_escaped_labels_and_one_polyline_per_line() {
        let lines = vec![
            Line {
                label: "a<b>".into(),
                points: vec![(10, 1.0), (11, 3.0), (12, 2.0)],
            },
            Line {
                label: "c".into(),
                points: vec![(10, 0.5)],
            },
        ];
        let svg = render("fetch & replay", "µs", &lines);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("fetch &amp; replay") && svg.contains("a&lt;b&gt; (3 slots)"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn a_single_point_still_renders_finite_coordinates() {
        let svg = render(
            "t",
            "y",
            &[Line {
                label: "h".into(),
                points: vec![(5, 0.0)],
            }],
        );
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    }
}
