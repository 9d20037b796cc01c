"""Which serial port is the board on, when the user did not say: the first Pico (USB vendor
2E8A), else the first USB serial device, as `mpremote connect auto` picks one."""

PICO_VID = 0x2E8A  # Raspberry Pi


def find_port():
    """The device path of the first Pico, else of the first USB serial device, else None."""
    from serial.tools import list_ports

    ports = sorted(list_ports.comports())
    picos = [p for p in ports if p.vid == PICO_VID]
    usb = [p for p in ports if p.vid is not None and p.pid is not None]
    found = picos or usb
    return found[0].device if found else None


def no_board(tool, example):
    """The message for "no --port and no board found", naming the fix."""
    return ("%s: no board found: no USB serial device of a Pico (VID 2E8A) or of any other "
            "board is attached.\n"
            "  Plug the Pico in over USB, or name the port: %s\n"
            "  (a virtual board: `python -m host_tools vboard` prints its port)"
            % (tool, example))


def missing(tool, port):
    """The message when `port` names a device file that is not there (unplugged, a typo),
    else None. Names like COM3 are left to the serial library."""
    import os

    if "/" in port and not os.path.exists(port):
        return ("%s: cannot open %s: there is no such device; is the board plugged in? "
                "(`python -m serial.tools.list_ports` lists the serial ports)" % (tool, port))
    return None


def choose(tool, port, example):
    """The port `tool` is to open: `port` as the user named it, else the first board found.
    None when there is none or the named device is not there: the reason, with its fix, is
    then printed on standard error (the tool exits with status 2)."""
    import sys

    if port is None:
        port = find_port()
        if port is None:
            print(no_board(tool, example), file=sys.stderr)
            return None
    problem = missing(tool, port)
    if problem:
        print(problem, file=sys.stderr)
        return None
    return port
