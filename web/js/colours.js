// An LED's colour as the page shows it. The frame's values are after brightness (white at
// 0.25 is 63), so each is divided by the board's brightness (clamped to 255) and named by
// the palette colour it is, or is a dimmed copy of (a pulse, a fade, the current limiter):
// the same reading as host_tools/games/kahuna/picture.py's full_level, but keeping the dimmed level so
// that the animations show.

export function knownColours(geometry) {
  return Object.entries(geometry.palette).filter(([, c]) => c[0] || c[1] || c[2]);
}

export function fullLevel(rgb, geometry, known) {
  if (!rgb[0] && !rgb[1] && !rgb[2]) return { rgb: [0, 0, 0], name: "off" };
  const b = geometry.brightness;
  const full = rgb.map((c) => Math.min(255, c / b));
  const tol = 1.5 / b + 1;
  let best = null;
  for (const [name, p] of known) {
    const d = Math.max(...full.map((f, i) => Math.abs(f - p[i])));
    if (d <= tol && (best === null || d < best.d)) best = { d, name, rgb: p };
  }
  if (best) return { rgb: best.rgb, name: best.name };
  if (Math.max(...rgb) >= 8) {
    for (const [name, p] of known) {
      const ps = p.map((c) => c * b);
      const k = (rgb[0] * ps[0] + rgb[1] * ps[1] + rgb[2] * ps[2]) /
        (ps[0] * ps[0] + ps[1] * ps[1] + ps[2] * ps[2]);
      if (!(k > 0 && k <= 1.02)) continue;
      const d = Math.max(...rgb.map((v, i) => Math.abs(v - k * ps[i])));
      if (d <= 2.5 && (best === null || d < best.d)) best = { d, name };
    }
  }
  return { rgb: full.map(Math.round), name: best ? best.name : null };
}

export function hex(rgb) {
  return "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

export function luma(rgb) {
  return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
}
