"""The repository stands alone: nothing in it (tests, make targets, docs, tools) reads or
sends readers to anything beside the clone, and the documents it points to are in it."""

import os
import re
import subprocess

from mpy_runner import ROOT

# Ways of reaching outside the repository that a clone does not have.
OUTSIDE = (re.compile(r"\.\./shared\b"), re.compile(r"/work/shared\b"),
           re.compile(r"""["']shared["']\s*,\s*["']examples["']"""),
           re.compile(r"dirname\(ROOT\)"))
TEXT = (".py", ".md", ".scn", ".toml", ".json", ".cfg", ".txt", ".sh")


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    files = [f for f in out if f and (f.endswith(TEXT) or os.path.basename(f) in
                                      ("Makefile", "run"))]
    return [f for f in files if os.path.isfile(os.path.join(ROOT, f))]


def test_nothing_reaches_outside_the_repository():
    files = tracked_files()
    assert "Makefile" in files and "README.md" in files
    assert "tests/games/kahuna/test_sim.py" in files
    this = os.path.relpath(__file__, ROOT)
    found = []
    for rel in files:
        if rel == this:
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if any(p.search(line) for p in OUTSIDE):
                    found.append("%s:%d: %s" % (rel, n, line.strip()))
    assert found == []


def test_every_document_the_readme_and_docs_link_to_is_in_the_repository():
    docs = ["README.md"] + ["docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                            if f.endswith(".md")]
    assert "docs/rules.md" in docs and "docs/scenarios.md" in docs
    missing = []
    for rel in docs:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target:
                continue
            path = os.path.normpath(os.path.join(ROOT, os.path.dirname(rel), target))
            if not os.path.exists(path) or not path.startswith(ROOT):
                missing.append("%s -> %s" % (rel, target))
        for name in re.findall(r"`([\w./-]+\.md)`", text):
            if not any(os.path.exists(os.path.join(ROOT, d, name)) for d in ("", "docs")):
                missing.append("%s names %s" % (rel, name))
    assert missing == []


def test_rules_doc_gives_every_ruling_with_its_reason():
    with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as f:
        text = f.read()
    for n in range(1, 12):
        block = text.split("**R%d " % n, 1)
        assert len(block) == 2, "R%d missing" % n
        body = block[1].split("\n\n", 1)[0]
        assert "*Why:*" in body, "R%d has no reason" % n


def test_scenarios_doc_names_every_rejection_code_and_command():
    from games.kahuna import rules
    with open(os.path.join(ROOT, "docs", "scenarios.md"), encoding="utf-8") as f:
        text = f.read()
    for code in (rules.WRONG_PHASE, rules.UNKNOWN_CARD, rules.NOT_IN_HAND, rules.NOT_DRAWABLE,
                 rules.HAND_FULL, rules.MUST_DRAW, rules.NO_OPTION, rules.BAD_PAIR,
                 rules.NOT_OFFERED):
        assert "| `%s` |" % code in text, code
    for command in ("option", "tap", "hold", "press", "pick", "wait", "power-cut", "expect"):
        assert "| `%s" % command in text, command
    from host_tools.games.kahuna.simreport import REPORT_KEYS
    for key in REPORT_KEYS:
        assert '"%s":' % key in text, key


def readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def test_readme_says_which_micropython_and_why_as_flash_checks_it():
    from host_tools.maker import flash

    text = " ".join(readme().split())
    need = "%d.%d" % flash.MIN_VERSION[:2]
    assert "MicroPython **%s or later**" % need in text
    assert "micropython.org/download/RPI_PICO" in text and "BOOTSEL" in text and ".uf2" in text
    version = subprocess.run([flash.find_mpy_cross(), "--version"], capture_output=True,
                             text=True, check=True).stdout.strip()
    emitting = version.split("; ", 1)[1]  # "mpy-cross emitting mpy v6.3"
    assert "`mpy-cross --version`: `%s`" % emitting in text
    assert "format %s is what MicroPython 1.19 and later load" % emitting[-3] in text


def test_readme_documents_the_virtual_board_as_it_behaves():
    from host_tools.maker import vboard
    from host_tools.maker.vboardcommands import COMMANDS

    text = readme()
    assert "python -m host_tools vboard\n" in text
    assert "`~/.cache/kahuna-vboard/flash/`" in text
    assert vboard.home().endswith("kahuna-vboard")
    for command in COMMANDS:
        assert "`python -m host_tools vboard %s" % command in text or \
            "`... vboard %s" % command in text, command
