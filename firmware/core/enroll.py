"""Card enrollment: teach the board which NFC tag is which card.

The host asks for one card at a time; the board lights that card's place and waits for a
tag. The tag must be an NTAG213/215/216 (GET_VERSION), must not be enrolled as another
card, and gets an NDEF text record naming the card (`Kahuna HUNA-1`, so a phone shows
it), written and read back. A card that carries a value (the game's `card_value_range`:
Halunken's crew cards, H2) is enrolled with its value, which the text carries too
(`Halunken & Spelunken RED-3 value 5`) and the registry records with the UID. Then the
registry is saved. Anything else is refused with a reason and the board keeps waiting
for the same card.

`tagio` is the reader driver (`ntag_get_version()`, `ntag_write(page, 4 bytes)`,
`ntag_read(page)` on the tag just detected); `send(obj)` reports to the host.
"""

NTAGS = {
    b"\x00\x04\x04\x02\x01\x00\x0f\x03": ("NTAG213", 144),
    b"\x00\x04\x04\x02\x01\x00\x11\x03": ("NTAG215", 504),
    b"\x00\x04\x04\x02\x01\x00\x13\x03": ("NTAG216", 888),
}
FIRST_USER_PAGE = 4
VALUE_WORD = " value "


def label(title, card, value=None):
    """The NDEF text a tag is given, so that a phone names it: "Kahuna HUNA-1", and for a
    card with a value "Halunken & Spelunken RED-3 value 5" (H2)."""
    text = title + " " + card
    return text if value is None else text + VALUE_WORD + str(value)


class Enroller:
    """`title` is the game's name as a person reads it (its `TITLE`)."""

    def __init__(self, registry, save, tagio, send, title):
        self.title = title
        self.registry = registry
        self.save = save
        self.tagio = tagio
        self.send = send
        self.card = None  # the card being enrolled, or None
        self.value = None  # its value (H2), for a card that carries one

    def start(self, card, value=None):
        if card not in self.registry.card_names:
            raise ValueError("%s is not a %s card" % (card, self.title))
        if value is not None or self.registry.value_range is not None:
            from core.cardvalues import new_value  # H2: RegistryError, a ValueError
            value = new_value(self.registry, card, value)
        self.card = card  # a refused start leaves the card being enrolled as it was
        self.value = value

    def stop(self):
        self.card = None
        self.value = None

    def refuse(self, uid_hex, reason):
        self.send({"event": "enroll-refused", "card": self.card, "uid": uid_hex,
                   "reason": reason})
        return False

    def tag(self, uid, uid_hex):
        """A tag arrived on the scanner while enrolling; True once the card is enrolled."""
        card = self.card
        value = self.value
        other = self.registry.card_for(uid)
        if other is not None and other != card:
            return self.refuse(uid_hex, "this tag is already enrolled as %s" % other)
        try:
            version = self.tagio.ntag_get_version()
        except Exception as e:  # any reader or tag error: not a usable NTAG
            return self.refuse(uid_hex, "not an NTAG tag (no answer to GET_VERSION: %s)" % e)
        if version not in NTAGS:
            return self.refuse(uid_hex, "not an NTAG213/215/216 tag (version %s)"
                               % "".join("%02X" % b for b in version))
        kind, capacity = NTAGS[version]
        from core import ndef  # loaded at the first enrolment: a game's heap does not carry it
        text = label(self.title, card, value)
        data = ndef.ndef_text_tlv(text, capacity=capacity)
        try:
            pages = ndef.to_pages(data)
            for i in range(len(pages)):
                self.tagio.ntag_write(FIRST_USER_PAGE + i, pages[i])
            back = b""
            page = FIRST_USER_PAGE
            while len(back) < len(data):
                back += self.tagio.ntag_read(page)
                page += 4
            got = ndef.parse_ndef_text(back)
        except Exception as e:
            return self.refuse(uid_hex, "writing the card's name failed: %s" % e)
        if got != text:
            what = "name" if value is None else "name and value"
            return self.refuse(uid_hex, "the card's %s did not read back (got %r)"
                               % (what, got))
        self.registry.enroll(card, uid, value)
        self.save()
        self.card = None
        self.value = None
        msg = {"event": "enrolled", "card": card, "uid": uid_hex, "tag": kind,
               "missing": self.registry.missing()}
        if value is not None:
            msg["value"] = value
        self.send(msg)
        return True
