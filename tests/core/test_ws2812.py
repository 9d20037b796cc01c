"""The LED chain's PIO + DMA driver (hw.ws2812) and the machine-code copies (its packing
into words, hw.grb's into a neopixel buffer), under the MicroPython unix port: the words
handed to the PIO hold each pixel's G, R, B from the top byte down, the DMA is set up for
one word a pixel into the state machine's TX FIFO paced by its DREQ, and a frame waits for
the last one's transfer.

`rp2` is a stand-in here (the unix port has none): it records what the driver asks of the
PIO and the DMA. On the emulated RP2040 (`make bench-chip`) the real ones drive the pin and
rp2040py's WS2812 decoder reads the frames back."""

import textwrap

import pytest

from hw.leds import Strip

FAKE_RP2 = '''
class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0
    JOIN_TX = 1

programs = []
def asm_pio(**kw):
    def wrap(f):
        programs.append(kw)
        return f
    return wrap

calls = []
class StateMachine:
    def __init__(self, sm_id, prog, freq=0, sideset_base=None):
        calls.append(("sm", sm_id, freq, sideset_base))
    def active(self, on):
        calls.append(("active", on))

class DMA:
    busy = 0  # how many more times active() says True
    def pack_ctrl(self, **kw):
        return kw
    def active(self):
        if DMA.busy:
            DMA.busy -= 1
            calls.append(("waited",))
            return True
        return False
    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        calls.append(("dma", list(read), write, count, ctrl, trigger))
'''


@pytest.fixture
def fake_rp2(tmp_path):
    (tmp_path / "rp2.py").write_text(FAKE_RP2)
    return str(tmp_path)


def test_the_packing_puts_g_r_b_at_the_top_of_each_word(mpy, fake_rp2):
    out = mpy.run_code(textwrap.dedent("""
        import sys
        sys.path.insert(0, FAKE)
        import array
        from hw.grb import copy_grb
        from hw.ws2812 import pack_grb32
        frame = bytes((k * 37 + 11) % 256 for k in range(3 * 43))
        w = array.array("I", bytes(4 * 43))
        pack_grb32(w, frame, 43)
        want = [frame[3*k+1] << 24 | frame[3*k] << 16 | frame[3*k+2] << 8 for k in range(43)]
        print(list(w) == want, hex(w[0]))  # (11, 48, 85) -> 0x30 0x0b 0x55 00
        buf = bytearray(3 * 43)
        copy_grb(buf, frame, 3 * 43)
        print(all(buf[3*k] == frame[3*k+1] and buf[3*k+1] == frame[3*k]
                  and buf[3*k+2] == frame[3*k+2] for k in range(43)))
    """).replace("FAKE", repr(fake_rp2)))
    assert out.split() == ["True", "0x300b5500", "True"]


def test_a_frame_goes_to_the_fifo_by_dma_one_word_a_pixel(mpy, fake_rp2):
    out = mpy.run_code(textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        import rp2
        from hw.ws2812 import PioChain
        from hw.leds import Strip
        chain = PioChain("pin28", 2, sm_id=1)
        strip = Strip(chain, 2)
        strip.show(bytes([10, 20, 30, 1, 2, 3]))
        rp2.DMA.busy = 2
        strip.show(bytes([255, 0, 0, 0, 0, 255]))
        print(rp2.programs)
        for c in rp2.calls:
            print(c)
    """ % fake_rp2))
    lines = out.splitlines()
    assert "'pull_thresh': 24" in lines[0] and "'autopull': True" in lines[0]
    assert lines[1] == "('sm', 1, 8000000, 'pin28')"
    assert lines[2] == "('active', 1)"
    # G R B from the top: (20, 10, 30) and (2, 1, 3); PIO0 TXF1 = 0x50200014, DREQ 1
    assert lines[3].startswith("('dma', [%d, %d], %d, 2, " % (
        20 << 24 | 10 << 16 | 30 << 8, 2 << 24 | 1 << 16 | 3 << 8, 0x50200014))
    assert "'treq_sel': 1" in lines[3] and "'size': 2" in lines[3]
    assert "'inc_write': False" in lines[3] and lines[3].endswith("True)")
    # the second frame waits while the first is still going out, then goes
    assert lines[4:6] == ["('waited',)", "('waited',)"]
    assert lines[6].startswith("('dma', [%d, %d], " % (255 << 16, 255 << 8))
    assert len(lines) == 7


def test_a_strip_hands_its_frame_to_a_chain_that_takes_rgb():
    got = []

    class Chain:
        def show(self, frame):
            got.append(bytes(frame))

    Strip(Chain(), 2).show(bytes([1, 2, 3, 4, 5, 6]))
    assert got == [bytes([1, 2, 3, 4, 5, 6])]


def test_a_neopixel_strip_still_gets_grb_bytes():
    class NeoPixel:
        buf = bytearray(6)
        writes = 0

        def write(self):
            NeoPixel.writes += 1

    np = NeoPixel()
    Strip(np, 2).show(bytes([1, 2, 3, 4, 5, 6]))
    assert bytes(np.buf) == bytes([2, 1, 3, 5, 4, 6]) and NeoPixel.writes == 1


def test_a_neopixel_buffer_too_short_is_refused():
    class NeoPixel:
        buf = bytearray(3)

    with pytest.raises(ValueError, match="fewer than 2 pixels"):
        Strip(NeoPixel(), 2)
