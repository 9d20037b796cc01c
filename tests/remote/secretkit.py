"""The dealer's secret on the wire (host_tools/remote/shuffle.py): none of its forms in any
message a spy saw."""

import base64


def forms(secret):
    """The secret as a message could carry it: hex either case, base64, its decimal."""
    key = bytes.fromhex(secret)
    return (secret.lower().encode(), secret.upper().encode(), base64.b64encode(key),
            base64.b64encode(key).rstrip(b"="), str(int(secret, 16)).encode())


def assert_not_on_the_wire(messages, secret):
    """`messages`: (topic, payload bytes, retain) as the spy saw them."""
    assert messages
    for topic, payload, _ in messages:
        for form in forms(secret):
            assert form not in payload, (topic, "the game's secret is on the wire")
