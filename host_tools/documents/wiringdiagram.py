"""wiring.svg: the schematic of the Pico and everything on it, drawn with schemdraw, the
Pico's header pins where they are on the board."""

import re

from core import board as boardmod
from core import checks
from host_tools.documents.hwfigures import (
    BULK_CAP,
    DATA_RESISTOR,
    PICO_GPIO_PIN,
    PIN_3V3,
    PIN_GND_L,
    PIN_GND_R,
    PIN_VSYS,
)
from host_tools.documents.hwtables import amps
from host_tools.documents.svgkit import num

SLOT = 1.1  # schemdraw units between two header pins of the Pico


def _slot(pin):
    """Slot of a header pin on its side of the Pico drawing, counted from the bottom."""
    return 21 - pin if pin <= 20 else pin - 20


def _ic(**kwargs):
    """An Ic box drawn upright, whatever direction the drawing went last."""
    import schemdraw.elements as elm

    return elm.Ic(**kwargs).right()


def _device(side, pins, pico_pins, label, extra=(), width=2.6):
    """An Ic box whose `side` pins line up with the Pico pins `pico_pins` (same order);
    `extra` are (name, side, slot) pins elsewhere on it, slots counted like the Pico's."""
    import schemdraw.elements as elm

    slots = [_slot(p) for p in pico_pins]
    lo = min(slots + [s for _, _, s in extra if s is not None])
    hi = max(slots + [s for _, _, s in extra if s is not None])
    total = hi - lo + 3
    ic_pins = [elm.IcPin(name=n, side=side, slot="%d/%d" % (s - lo + 2, total), anchorname=n)
               for n, s in zip(pins, slots)]
    for n, sd, s in extra:
        if s is None:
            ic_pins.append(elm.IcPin(name=n, side=sd, anchorname=n))
        else:
            ic_pins.append(elm.IcPin(name=n, side=sd, slot="%d/%d" % (s - lo + 2, total),
                                     anchorname=n))
    return _ic(pins=ic_pins, pinspacing=SLOT, size=(width, (total - 1) * SLOT + 0.4),
                  lsize=11, plblsize=9).label(label, loc="top", fontsize=11)


def wiring_svg(hw):
    """The schematic: the Pico in the middle (header pins where they are on the board),
    the PN532 and buttons on its left, supply, level shifter, pixels, buzzer and encoder
    on its right. +5 V, 3V3 and ground are net symbols."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"
    b = hw.board
    pins = b.pins
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=10, font="DejaVu Sans", unit=2, lw=1.1)

    used = {}  # header pin -> label inside the Pico
    for gpio, pin, _sig, _dest, _f in hw.wiring:
        used[pin] = "GP%d" % gpio if gpio is not None else _sig.replace("(OUT)", "")
    used[PIN_GND_L] = "GND"
    pico_pins = [elm.IcPin(name=used[p], pin=str(p), side="left" if p <= 20 else "right",
                           slot="%d/20" % _slot(p), anchorname="p%d" % p)
                 for p in sorted(used)]
    pico = d.add(_ic(pins=pico_pins, pinspacing=SLOT, size=(3.4, 20 * SLOT), lsize=11,
                        plblsize=9).label("Raspberry Pi Pico\n(top view, USB up)", loc="top",
                                          fontsize=11))

    def pt(p):
        return pico.absanchors["p%d" % p]

    # ---- left: ground, PN532, buttons
    d.add(elm.Line().at(pt(PIN_GND_L)).left().length(0.6))
    d.add(elm.Ground().at(d.elements[-1].end))
    i2c = pins.get("i2c")
    if i2c:
        names, ppins = [], []
        for name, gp in (("SDA", i2c["sda"]), ("SCL", i2c["scl"]),
                         ("RSTPDN", pins.get("pn532_reset"))):
            if gp is not None:
                names.append(name)
                ppins.append(PICO_GPIO_PIN[gp])
        side = "right" if min(ppins) <= 20 else "left"
        top = max(_slot(p) for p in ppins)
        nfc = _device(side, names, ppins, "PN532 NFC\n(I2C mode)",
                      extra=(("VCC", "left" if side == "right" else "right", top),
                             ("GND", "left" if side == "right" else "right", top - 1)))
        xa = pt(ppins[0])
        dx = -4.5 if side == "right" else 4.5
        nfc = d.add(nfc.anchor(names[0]).at((xa[0] + dx, xa[1])))
        for name, p in zip(names, ppins):
            d.add(elm.Line().at(pt(p)).to((nfc.absanchors[name][0], pt(p)[1])))
        vdd_at = nfc.absanchors["VCC"]
        d.add(elm.Line().at(vdd_at).length(0.5).left() if side == "right"
              else elm.Line().at(vdd_at).length(0.5).right())
        d.add(elm.Vdd().at(d.elements[-1].end).label("3V3", fontsize=9))
        g_at = nfc.absanchors["GND"]
        d.add(elm.Line().at(g_at).length(0.5).left() if side == "right"
              else elm.Line().at(g_at).length(0.5).right())
        d.add(elm.Ground().at(d.elements[-1].end))

    buttons = pins["buttons"]
    for group in ("left", "right"):
        rows = [(role, PICO_GPIO_PIN[buttons[role]])
                for role in checks.keys(buttons, boardmod.ROLES)
                if (PICO_GPIO_PIN[buttons[role]] <= 20) == (group == "left")]
        if not rows:
            continue
        sign = -1 if group == "left" else 1
        bus_x = pt(rows[0][1])[0] + sign * 5.2
        ends = []
        for role, p in rows:
            start = pt(p)
            line = d.add(elm.Line().at(start).to((start[0] + sign * 1.6, start[1])))
            btn = elm.Button().at(line.end).label(role, fontsize=9)
            btn = d.add(btn.left() if sign < 0 else btn.right())
            d.add(elm.Line().at(btn.end).to((bus_x, start[1])))
            d.add(elm.Dot().at((bus_x, start[1])))
            ends.append(start[1])
        bottom = min(ends)
        d.add(elm.Line().at((bus_x, max(ends))).to((bus_x, bottom - 0.5)))
        d.add(elm.Ground().at((bus_x, bottom - 0.5)))

    # ---- right: power pins
    vs = pt(PIN_VSYS)
    line = d.add(elm.Line().at(vs).right().length(0.4))
    diode = d.add(elm.Schottky().at(line.end).right().length(2.2).reverse()
                  .label("1N5817", fontsize=9))
    d.add(elm.Vdd().at(diode.end).label("+5 V", fontsize=9))
    line = d.add(elm.Line().at(pt(PIN_GND_R)).right().length(0.4))
    d.add(elm.Ground().at(line.end))
    g3 = pt(PIN_3V3)
    line = d.add(elm.Line().at(g3).right().length(1.6))
    d.add(elm.Vdd().at(line.end).label("3V3", fontsize=9))

    # ---- right: data line: level shifter, resistor, pixels
    dp = pt(PICO_GPIO_PIN[pins["neopixel"]])
    lvl = _ic(pins=[elm.IcPin(name="1A", pin="2", side="left", anchorname="A"),
                    elm.IcPin(name="1Y", pin="3", side="right", anchorname="Y"),
                    elm.IcPin(name="VCC", pin="14", side="top", slot="2/2", anchorname="VCC"),
                    elm.IcPin(name="1OE", pin="1", side="bottom", anchorname="OE"),
                    elm.IcPin(name="GND", pin="7", side="bottom", anchorname="GND")],
              size=(2.4, 1.6), lsize=10, plblsize=8)
    lvl = d.add(lvl.anchor("A").at((dp[0] + 3.6, dp[1])))
    d.add(elm.Label().at((dp[0] + 4.1, dp[1] + 1.15)).label("74AHCT125", fontsize=10,
                                                               halign="left"))
    d.add(elm.Line().at(dp).to(lvl.absanchors["A"]))
    d.add(elm.Label().at((dp[0] + 0.4, dp[1] + 0.35)).label("3.3 V data", fontsize=8,
                                                               halign="left"))
    d.add(elm.Vdd().at(lvl.absanchors["VCC"]).label("+5 V", fontsize=9))
    d.add(elm.Ground().at(lvl.absanchors["OE"]))
    d.add(elm.Ground().at(lvl.absanchors["GND"]))
    res = d.add(elm.Resistor().at(lvl.absanchors["Y"]).right().length(2.4)
                .label(DATA_RESISTOR, fontsize=9))
    n = b.led_count

    def pixel(label):
        return _ic(pins=[elm.IcPin(name="5V", side="left", slot="3/3", anchorname="Vi"),
                            elm.IcPin(name="DIN", side="left", slot="2/3", anchorname="Di"),
                            elm.IcPin(name="GND", side="left", slot="1/3", anchorname="Gi"),
                            elm.IcPin(name="5V", side="right", slot="3/3", anchorname="Vo"),
                            elm.IcPin(name="DOUT", side="right", slot="2/3", anchorname="Do"),
                            elm.IcPin(name="GND", side="right", slot="1/3", anchorname="Go")],
                   pinspacing=0.55, size=(2.6, 1.6), lsize=8, plblsize=8,
                   leadlen=0.35).label(label, loc="top", fontsize=9)

    cap_x = res.end[0] + 0.9
    first = d.add(pixel("pixel 0").anchor("Di").at((res.end[0] + 1.8, res.end[1])))
    d.add(elm.Line().at(res.end).to(first.absanchors["Di"]))
    # first pixel's supply: +5 V and GND symbols, the bulk capacitor beside them
    v_in, g_in = first.absanchors["Vi"], first.absanchors["Gi"]
    d.add(elm.Line().at(v_in).to((cap_x, v_in[1])))
    d.add(elm.Line().at((cap_x, v_in[1])).up().length(0.3))
    d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
    d.add(elm.Line().at(g_in).to((cap_x, g_in[1])))
    d.add(elm.Ground().at((cap_x, g_in[1])))
    # pixel 1 wired to pixel 0, a dotted gap for the middle of the chain, the last pixel
    row_y = first.absanchors["Di"][1]
    prev = first
    gap = False
    for lab in (["pixel 1", None, "pixel %d" % (n - 1)] if n > 3
                else ["pixel %d" % j for j in range(1, n)]):
        if lab is None:
            gap = True
            continue
        x = prev.absanchors["Do"][0] + (2.6 if gap else 0.9)
        nxt = d.add(pixel(lab).anchor("Di").at((x, row_y)))
        for a, bb in (("Vo", "Vi"), ("Do", "Di"), ("Go", "Gi")):
            wire = elm.Line().at(prev.absanchors[a]).to(nxt.absanchors[bb])
            d.add(wire.linestyle(":") if gap else wire)
        if gap:
            mid = (prev.absanchors["Do"][0] + nxt.absanchors["Di"][0]) / 2
            d.add(elm.Label().at((mid, row_y + 1.25)).label("pixels 2-%d" % (n - 2),
                                                            fontsize=8))
        prev, gap = nxt, False
    # room after the last pixel's outputs (the end of the chain), so they do not run into
    # the picture's edge
    d.add(elm.Gap().at(prev.absanchors["Do"]).right().length(0.8))
    # the 5 V supply and bulk capacitor, drawn with net symbols above the first pixel
    cx, cy = first.absanchors["Vi"][0] - 0.2, first.absanchors["Vi"][1] + 2.2
    cap = d.add(elm.Capacitor(polar=True).at((cx, cy + 1.0)).down().length(1.6)
                .label(BULK_CAP + "\nat pixel 0", loc="top", fontsize=9))
    d.add(elm.Vdd().at(cap.start).label("+5 V", fontsize=9))
    d.add(elm.Ground().at(cap.end))
    sup = _ic(pins=[elm.IcPin(name="+", side="left", slot="2/2", anchorname="P"),
                       elm.IcPin(name="−", side="left", slot="1/2", anchorname="M")],
                 size=(2.6, 1.4), pinspacing=0.7, lsize=10).label(
        "5 V DC\n%s" % amps(hw.power["recommended_a"]), loc="center", fontsize=9)
    sup = d.add(sup.anchor("P").at((cx + 3.2, cy + 0.6)))
    d.add(elm.Line().at(sup.absanchors["P"]).left().length(0.6))
    d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
    d.add(elm.Line().at(sup.absanchors["M"]).left().length(0.6))
    d.add(elm.Ground().at(d.elements[-1].end))

    # ---- right: buzzer
    if "buzzer" in pins:
        bp = pt(PICO_GPIO_PIN[pins["buzzer"]])
        rb = d.add(elm.Resistor().at(bp).right().length(2.6).label("1 kΩ", fontsize=9))
        q = d.add(elm.BjtNpn(circle=True).anchor("base").at(rb.end)
                  .label("NPN", loc="right", fontsize=9))
        d.add(elm.Ground().at(q.emitter))
        cx, cy = q.collector
        low, top = (cx, cy + 0.4), (cx, cy + 1.6)
        d.add(elm.Line().at(q.collector).to(low))
        d.add(elm.Line().at(low).to((cx, low[1] + 0.35)))
        bz = d.add(elm.Speaker().right().anchor("in2").at((cx, low[1] + 0.35))
                   .label("buzzer", loc="right", fontsize=9))
        d.add(elm.Line().at(bz.absanchors["in1"]).to(top))
        d.add(elm.Line().at(top).up().length(0.3))
        d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
        dx = cx - 1.0
        d.add(elm.Line().at(low).to((dx, low[1])))
        d.add(elm.Line().at(top).to((dx, top[1])))
        d.add(elm.Diode().at((dx, low[1])).to((dx, top[1]))
              .label("1N4148", loc="bottom", fontsize=8))

    # ---- right: encoder
    enc = pins.get("encoder")
    if enc:
        names = [n for n in ("switch", "b", "a") if n in enc]
        ppins = [PICO_GPIO_PIN[enc[n]] for n in names]
        labels = {"a": "A", "b": "B", "switch": "SW"}
        side = "left" if min(ppins) > 20 else "right"
        ed = _device(side, [labels[n] for n in names], ppins, "EC11 encoder",
                     extra=(("C", "bottom", None), ("SW2", "bottom", None)), width=2.6)
        ea = pt(ppins[0])
        ed = d.add(ed.anchor(labels[names[0]]).at((ea[0] + (4.0 if side == "left" else -4.0),
                                                   ea[1])))
        for n, p in zip(names, ppins):
            d.add(elm.Line().at(pt(p)).to((ed.absanchors[labels[n]][0], pt(p)[1])))
        d.add(elm.Ground().at(ed.absanchors["C"]))
        d.add(elm.Ground().at(ed.absanchors["SW2"]))
    # notes, in the empty corner under the pixels
    notes = [
        "Every +5 V symbol is one net, every ground symbol another:",
        "join them with short, thick wires (supply -> pixel 0, Pico, 74AHCT125, buzzer).",
        "The supply meets the pixels at pixel 0, with the %s capacitor there." % BULK_CAP,
        "74AHCT125: 100 nF from VCC to GND; unused 2A-4A to GND, 2OE-4OE to +5 V.",
        "PN532: set its mode switches to I2C. Dashed: reserved, not used yet.",
        "Buttons and encoder switch to GND: the Pico's internal pull-ups, active low.",
    ]
    bx = pt(PIN_GND_R)[0] + 11.5
    by = pt(PICO_GPIO_PIN[pins["neopixel"]])[1] - 4.5
    for i, line_text in enumerate(notes):
        d.add(elm.Label().at((bx, by - 0.55 * i)).label(line_text, fontsize=9, halign="left"))
    svg = d.get_imagedata("svg").decode("utf-8")
    # schemdraw writes floats as repr (-2.6999999999999997): round them, fixed format
    return re.sub(r"-?\d+\.\d{4,}", lambda m: num(float(m.group()), 3), svg)
