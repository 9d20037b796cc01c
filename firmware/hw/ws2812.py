# mypy: disable-error-code="name-defined"
# (the PIO program below is written in the names of rp2.asm_pio's assembler)
"""The WS2812 chain driven by the RP2040's PIO and fed by DMA: the CPU packs a frame into
words and starts a DMA transfer, then goes on while the state machine clocks the bits out.

MicroPython's `neopixel` writes the chain with `machine.bitstream`, which holds the CPU
(interrupts off) for the whole of the wire time: 30 us a pixel at 800 kHz, about 1.5 ms a
frame for Kahuna's board, 50 times a second. Here the CPU's part is the packing (machine
code) and the DMA's set-up, and the wire time is the PIO's and the DMA's.

Its own copy into the words is machine code (viper), so the Pico loads neither hw.grb nor
`neopixel`.

The state machine runs the WS2812 program of MicroPython's rp2 examples (pio_ws2812.py):
8 MHz, 10 cycles a bit (800 kHz), a 1 high for 7 cycles, a 0 for 3; 24 bits a pixel from
the top of each word (autopull at 24). The line stays low when the FIFO runs dry, which
latches the frame (the chain needs 50 us low; frames are 20 ms apart). The DMA writes one
32-bit word a pixel to the state machine's TX FIFO (joined: 8 words deep), paced by its
DREQ.

Only the board loads this (main.py, on a MicroPython with `rp2.DMA`); the simulator and the
virtual board keep `neopixel` (hw.leds.Strip works with either).
"""

import array

import micropython
import rp2

PIO0_TXF0 = 0x50200010  # RP2040: PIO0's TX FIFO of state machine 0; +4 per machine
DREQ_PIO0_TX0 = 0  # RP2040 DREQ of that FIFO; +1 per machine
SIZE_WORD = 2  # DMA transfer size: 32 bits


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=24, fifo_join=rp2.PIO.JOIN_TX)
def _ws2812():
    wrap_target()  # noqa: F821  (names of the PIO assembler)
    label("bitloop")  # noqa: F821
    out(x, 1).side(0)[2]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[1]  # noqa: F821
    jmp("bitloop").side(1)[4]  # noqa: F821
    label("do_zero")  # noqa: F821
    nop().side(0)[4]  # noqa: F821
    wrap()  # noqa: F821


@micropython.viper
def pack_grb32(dst: ptr32, src: ptr8, n: int):  # noqa: F821  (viper's pointer types)
    """dst[k] = G << 24 | R << 16 | B << 8 for the k-th RGB pixel of src, k < n: the words
    the state machine shifts out from the top."""
    k = 0
    j = 0
    while k < n:
        dst[k] = (src[j + 1] << 24) | (src[j] << 16) | (src[j + 2] << 8)
        k += 1
        j += 3


class PioChain:
    """`n` WS2812 pixels on `pin` (a machine.Pin), through PIO0's state machine `sm_id`
    and a DMA channel of its own. `show(frame)` takes the RGB bytes of a frame (3 a
    pixel) and returns once the transfer has started."""

    def __init__(self, pin, n, sm_id=0):
        self.n = n
        self.words = array.array("I", bytes(4 * n))
        self.sm = rp2.StateMachine(sm_id, _ws2812, freq=8_000_000, sideset_base=pin)
        self.sm.active(1)
        self.dma = rp2.DMA()
        self.fifo = PIO0_TXF0 + 4 * sm_id
        self.ctrl = self.dma.pack_ctrl(size=SIZE_WORD, inc_write=False,
                                       treq_sel=DREQ_PIO0_TX0 + sm_id)

    def show(self, frame):
        dma = self.dma
        while dma.active():  # the last frame still on its way (only within ~1.5 ms of it)
            pass
        pack_grb32(self.words, frame, self.n)
        dma.config(read=self.words, write=self.fifo, count=self.n, ctrl=self.ctrl,
                   trigger=True)
