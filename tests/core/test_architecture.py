"""The layers keep to their places: the platform (`core`) imports only itself and the
standard library; a game (`games/<name>`) imports the core and itself, never another game;
the drivers (`hw`) import neither; only main.py and the drivers touch the
Pico's hardware modules; and the board itself (its islands) lives in board_def, not in code.
The host tools set the path in one place, keep fake hardware in fakehw (shared by the
simulator and the virtual board), and the virtual board's "ROM" holds no firmware."""

import ast
import glob
import io
import json
import os
import re
import tokenize

from mpy_runner import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE_MODULES = ("machine", "neopixel", "rp2")
# The standard library as both runtimes have it (MicroPython's `micropython` and `time`'s
# ticks included): what core and the games may import besides themselves.
STDLIB = ("array", "asyncio", "collections", "gc", "json", "micropython", "os", "struct", "sys",
          "time", "binascii", "errno", "io", "math", "random", "re", "select", "zlib")
# Imports outside these rules that are known and still to be removed, as (file, package);
# test_known_exceptions_are_still_needed fails once one is no longer needed.
KNOWN = set()


def modules(folder):
    return sorted(glob.glob(os.path.join(FIRMWARE, folder, "*.py")))


def games():
    return sorted(d for d in os.listdir(os.path.join(FIRMWARE, "games"))
                  if os.path.isfile(os.path.join(FIRMWARE, "games", d, "__init__.py")))


def full_imports(path):
    """Every module name a file imports, whole ("core.ticks"), at any nesting (try/except
    fallbacks too)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def imports(path):
    """Package names a file imports: the top-level name, or "games.<game>" for a game's
    package."""
    found = set()
    for name in full_imports(path):
        parts = name.split(".")
        found.add(".".join(parts[:2]) if parts[0] == "games" and len(parts) > 1 else parts[0])
    return found


def rel(path):
    return os.path.relpath(path, FIRMWARE).replace(os.sep, "/")


def test_core_imports_only_core_and_the_standard_library():
    bad = []
    for path in modules("core"):
        for name in imports(path):
            if name != "core" and name not in STDLIB and (rel(path), name) not in KNOWN:
                bad.append((rel(path), name))
    assert bad == []


def test_a_game_imports_the_core_and_itself_never_another_game():
    assert games(), "no game package under firmware/games"
    bad = []
    for game in games():
        for path in modules(os.path.join("games", game)):
            for name in imports(path):
                if name not in ("core", "games." + game) and name not in STDLIB:
                    bad.append((rel(path), name))
    assert bad == []


def test_known_exceptions_are_still_needed():
    for path, name in KNOWN:
        assert name in imports(os.path.join(FIRMWARE, path)), (
            "%s no longer imports %s: drop it from KNOWN" % (path, name))


def test_hw_imports_no_game_and_of_the_core_only_its_ticks():
    # The drivers sit below the platform: the one thing of it they use is the time
    # fallback that lets them run on CPython (core.ticks, which imports nothing).
    bad = [(rel(p), n) for p in modules("hw") for n in full_imports(p)
           if n.startswith("games") or (n.startswith("core") and n != "core.ticks")]
    assert bad == []
    assert full_imports(os.path.join(FIRMWARE, "core", "ticks.py")) <= {"time"}


def test_only_main_and_hw_touch_the_picos_hardware_modules():
    bad = []
    paths = modules("core") + sum((modules(os.path.join("games", g)) for g in games()), [])
    paths += glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"), recursive=True)
    for path in paths:
        if os.sep + os.path.join("fakehw", "pico") + os.sep in path:
            continue  # the virtual board's own `machine` and `neopixel` (fake hardware)
        for name in imports(path):
            if name in HARDWARE_MODULES:
                bad.append((os.path.relpath(path, ROOT), name))
    assert bad == []
    assert "machine" in imports(os.path.join(FIRMWARE, "main.py"))


def island_names():
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        return [i["id"] for i in json.load(f)["layout"]["islands"]]


def test_every_board_definition_names_a_game_and_only_places_it_defines():
    """Each board_def/*.json is for a game of the firmware, and its layout holds only the
    places that game's layout defines (the game's parser refuses any other key)."""
    from core import board as boardmod
    paths = sorted(glob.glob(os.path.join(ROOT, "board_def", "*.json")))
    assert paths
    for path in paths:
        with open(path) as f:
            raw = json.load(f)
        assert raw.get("game") in games(), path
        layout = boardmod.game_layout(raw["game"])
        assert set(raw["layout"]) <= set(layout.KEYS), path
        boardmod.load(path)  # the whole file passes its game's checks


def code_strings(path):
    """(line, text) of every string literal and name in a Python file except docstrings
    and comments: what the code itself says."""
    with open(path) as f:
        src = f.read()
    docstrings = set()
    for node in ast.walk(ast.parse(src, path)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                docstrings.add(body[0].lineno)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.STRING, tokenize.NAME) and tok.start[0] not in docstrings:
            out.append((tok.start[0], tok.string))
    return out


def test_no_island_name_in_code_outside_board_def_and_tests():
    pattern = re.compile(r"\b(%s)\b" % "|".join(island_names()))
    paths = (glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True)
             + glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"), recursive=True)
             + glob.glob(os.path.join(ROOT, "tools", "**", "*.py"), recursive=True))
    bad = []
    for path in paths:
        for line, text in code_strings(path):
            if pattern.search(text):
                bad.append("%s:%d %s" % (os.path.relpath(path, ROOT), line, text[:60]))
    assert bad == []


# ------------------------------------------------------------------ the host tools

HOST_TOOLS = os.path.join(ROOT, "host_tools")
PICO = os.path.join(HOST_TOOLS, "fakehw", "pico")
# sys.path is set in one place: the package's own path set-up. The virtual board's
# supervisor sets the board's sys.path (as the Pico's boot does), not the host's.
PATH_SETUP = {"host_tools/__init__.py", "host_tools/fakehw/pico/_supervisor.py"}


def host_modules():
    return sorted(glob.glob(os.path.join(HOST_TOOLS, "**", "*.py"), recursive=True))


def path_edits(path):
    """Lines that change sys.path: its methods that change it, an assignment to it or to
    a slice of it, `from sys import path`, site.addsitedir."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)

    def is_sys_path(node):
        return (isinstance(node, ast.Attribute) and node.attr == "path"
                and isinstance(node.value, ast.Name) and node.value.id == "sys")

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            if is_sys_path(f.value) and f.attr in ("insert", "append", "extend", "remove",
                                                   "pop", "clear", "reverse", "sort"):
                found.append(node.lineno)
            elif f.attr == "addsitedir":
                found.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [
                node.target]
            for t in targets:
                if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                    found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" and any(
                a.name == "path" for a in node.names):
            found.append(node.lineno)
    return sorted(found)


def test_path_edits_are_found():
    # The check itself: each way of changing sys.path is seen, reading it is not.
    import tempfile
    src = ("import sys, site\nsys.path.insert(0, 'x')\nsys.path[:] = []\nsys.path = ['y']\n"
           "sys.path += ['z']\nsite.addsitedir('w')\nfrom sys import path\n"
           "if 'x' in sys.path:\n    print(sys.path[0])\n")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
    try:
        assert path_edits(f.name) == [2, 3, 4, 5, 6, 7]
    finally:
        os.remove(f.name)


def test_host_tools_set_the_path_in_one_place():
    bad = []
    for path in host_modules():
        name = os.path.relpath(path, ROOT).replace(os.sep, "/")
        if name not in PATH_SETUP:
            bad += ["%s:%d" % (name, line) for line in path_edits(path)]
    assert bad == []
    for name in PATH_SETUP:
        assert path_edits(os.path.join(ROOT, name)), "%s no longer sets the path" % name


def top_level_imports(path):
    """Modules a file imports when it is loaded: imports outside functions and classes
    (a try/except or if at the top counts), as full dotted names."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
            found += [node.module + "." + a.name for a in node.names]
        elif isinstance(node, (ast.Try, ast.If)):
            todo += node.body + node.orelse + getattr(node, "finalbody", [])
            todo += [s for h in getattr(node, "handlers", []) for s in h.body]
    return found


def module_file(name):
    """The file of a module the virtual board can import: the pico folder's own modules,
    host_tools' (a package's __init__ too), or None (the standard library, firmware)."""
    parts = name.split(".")
    if len(parts) == 1 and os.path.exists(os.path.join(PICO, name + ".py")):
        return os.path.join(PICO, name + ".py")
    if parts[0] != "host_tools":
        return None
    base = os.path.join(ROOT, *parts)
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(path):
            return path
    return None


def test_the_virtual_board_holds_no_firmware_of_the_repository():
    # What the virtual board imports before its file system is mounted stays loaded, as
    # the Pico's ROM: a `core`, `games` or `hw` module among it would stand in for the one flashed.
    seen = set()
    todo = [os.path.join(PICO, n) for n in ("_supervisor.py", "machine.py", "neopixel.py")]
    bad = []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in top_level_imports(path):
            if name.split(".")[0] in ("core", "games", "hw"):
                bad.append((os.path.relpath(path, ROOT), name))
            parts = name.split(".")
            for k in range(1, len(parts) + 1):  # a package's __init__ runs first
                found = module_file(".".join(parts[:k]))
                if found:
                    todo.append(found)
    assert bad == []
    # It does reach the shared fakes: the check follows the imports.
    assert os.path.join(HOST_TOOLS, "fakehw", "pins.py") in seen
    assert os.path.join(HOST_TOOLS, "fakehw", "strip.py") in seen


def test_fake_hardware_lives_in_fakehw():
    # One home for fake hardware: no host tool outside fakehw defines a class that
    # stands in for a Pico part, and the simulator and the virtual board share the fakes.
    parts = ("Pin", "NeoPixel", "PWM", "I2C", "Flash", "PN532", "NTAG")
    bad = []
    for path in host_modules():
        if os.sep + "fakehw" + os.sep in path:
            continue
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.ClassDef) and any(p in node.name for p in parts)
                    and not node.name.endswith("Error")):  # FlashError is a tool's error
                bad.append("%s: class %s" % (os.path.relpath(path, ROOT), node.name))
    assert bad == []
    # The virtual board's Pin and NeoPixel are the simulator's (fakehw/pins.py, strip.py):
    # at most a subclass that connects them to the launcher.
    own = []
    for path in glob.glob(os.path.join(PICO, "*.py")):
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        own += [(os.path.basename(path), node.name, len(node.bases))
                for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and node.name in ("Pin", "NeoPixel")]
    assert own == [("_vboard.py", "Pin", 1)]
    # The virtual board's PWM is the simulator's VirtualPWM, one rule for duty, freq and
    # deinit: a subclass that only takes machine.PWM's arguments and reports its output.
    with open(os.path.join(PICO, "machine.py")) as f:
        tree = ast.parse(f.read())
    pwm = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "PWM"]
    assert len(pwm) == 1 and [ast.unparse(b) for b in pwm[0].bases] == ["_VirtualPWM"]
    assert sorted(n.name for n in pwm[0].body if isinstance(n, ast.FunctionDef)) == [
        "__init__", "_changed"]


def test_the_firmware_never_imports_the_host_tools():
    bad = [rel(p) for p in glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True)
           if "host_tools" in imports(p) or "tests" in imports(p)]
    assert bad == []


# ------------------------------------------------------------ the games' host parts

HOST_GAMES = os.path.join(HOST_TOOLS, "games")
# Host modules outside host_tools/games/ that still name a game's host package, as
# (file, package), with why; test_known_host_exceptions_are_still_needed fails once one
# is no longer needed. None left: the browser page was the last (now a `webgame` part).
KNOWN_HOST: set = set()
# Host modules outside host_tools/games/ that still import a firmware game's modules
# directly (not through its interface, core.gameload). None left.
KNOWN_FIRMWARE_GAME: set = set()


def host_game_packages():
    return sorted(d for d in os.listdir(HOST_GAMES)
                  if os.path.isfile(os.path.join(HOST_GAMES, d, "__init__.py")))


def game_packages_named(path):
    """(kind, package) of every game package a file imports, at any nesting: "host" for
    host_tools.games.<game> (a module of it, or `from host_tools.games import <game>`),
    "firmware" for games.<game>."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
            names += [node.module + "." + a.name for a in node.names]
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[:2] == ["host_tools", "games"] and len(parts) > 2 and (
                parts[2] in host_game_packages() or parts[2] in games()):
            found.add(("host", ".".join(parts[:3])))
        elif parts[0] == "games" and len(parts) > 1 and parts[1] in games():
            found.add(("firmware", ".".join(parts[:2])))
    return found


def host_rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def test_the_game_import_check_sees_every_spelling():
    import tempfile
    src = ("from host_tools.games import part\nfrom host_tools.games import kahuna\n"
           "def f():\n    import host_tools.games.kahuna.picture\n"
           "    from games.kahuna import rules\n    from games import kahuna\n")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
    try:
        assert game_packages_named(f.name) == {("host", "host_tools.games.kahuna"),
                                               ("firmware", "games.kahuna")}
    finally:
        os.remove(f.name)


def test_host_tools_reach_a_games_host_parts_only_through_the_registry():
    # Outside host_tools/games/, a tool asks host_tools.games (the registry) for a game's
    # part by the game's name; it never imports one game's host module itself.
    bad = []
    for path in host_modules():
        if path.startswith(HOST_GAMES + os.sep):
            continue
        for kind, name in game_packages_named(path):
            if kind == "host" and (host_rel(path), name) not in KNOWN_HOST:
                bad.append((host_rel(path), name))
    assert bad == []


def test_generic_host_tools_import_no_firmware_game_directly():
    # A game's firmware is reached through its interface (core.gameload by the board
    # definition's game); Kahuna's own host code lives in host_tools/games/kahuna/.
    bad = []
    for path in host_modules():
        if path.startswith(HOST_GAMES + os.sep):
            continue
        for kind, name in game_packages_named(path):
            if kind == "firmware" and (host_rel(path), name) not in KNOWN_FIRMWARE_GAME:
                bad.append((host_rel(path), name))
    assert bad == []


def test_known_host_exceptions_are_still_needed():
    for path, name in KNOWN_HOST:
        assert ("host", name) in game_packages_named(os.path.join(ROOT, path)), (
            "%s no longer imports %s: drop it from KNOWN_HOST" % (path, name))
    for path, name in KNOWN_FIRMWARE_GAME:
        assert ("firmware", name) in game_packages_named(os.path.join(ROOT, path)), (
            "%s no longer imports %s: drop it from KNOWN_FIRMWARE_GAME" % (path, name))


def test_a_games_host_package_is_for_a_game_of_the_firmware_and_names_no_other():
    assert "kahuna" in host_game_packages()
    bad = []
    for game in host_game_packages():
        assert game in games(), "host_tools/games/%s/ is for no game of the firmware" % game
        for path in glob.glob(os.path.join(HOST_GAMES, game, "*.py")):
            for _, name in game_packages_named(path):
                if name.rsplit(".", 1)[1] != game:
                    bad.append((host_rel(path), name))
    assert bad == []


def test_no_module_of_the_registry_is_left_behind_in_the_generic_folders():
    # One home for each game's part: a module of that name in a game's host package is
    # not also a module of the generic tools (host_tools/simulator, measure, ...).
    from host_tools import gamearg
    generic = {os.path.splitext(os.path.basename(p))[0] for p in host_modules()
               if not p.startswith(HOST_GAMES + os.sep)}
    assert set(gamearg.PARTS) & generic == set()
    assert not os.path.exists(os.path.join(ROOT, "tests", "invariants.py"))


def host_import_graph():
    """module -> the host_tools modules it imports (at any nesting: an import inside a
    function closes a circle too)."""
    mods = {}
    for path in host_modules():
        name = os.path.splitext(host_rel(path))[0].replace("/", ".")
        mods[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    graph = {}
    for name, path in mods.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
                found.update(node.module + "." + a.name for a in node.names)
        graph[name] = sorted(m for m in found if m in mods and m != name)
    return graph


def test_the_host_tools_import_in_no_circle():
    # e.g. the simulator's picture and simulator/cli once imported each other.
    graph = host_import_graph()
    state = {}
    circles = []

    def visit(name, path):
        state[name] = "open"
        for dep in graph[name]:
            if state.get(dep) == "open":
                circles.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, path + [dep])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []
    assert "host_tools.simulator.engine" in graph["host_tools.games.kahuna.picture"]


def test_the_live_page_and_the_monitor_are_two_views_of_the_boards_news():
    """The live page keeps the board's state and its news in words with the same object
    the terminal monitor draws (maker/boardnews.py), not through a terminal monitor
    writing into a buffer."""
    with open(os.path.join(ROOT, "host_tools", "web", "live.py")) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.update("%s.%s" % (node.module, a.name) for a in node.names)
            imported.add(node.module)
    assert "host_tools.maker.boardnews.BoardNews" in imported
    assert not any(name.startswith("host_tools.maker.monitor") for name in imported)
    from host_tools.maker import boardnews, monitor
    assert issubclass(monitor.Monitor, boardnews.BoardNews)


def test_no_two_test_modules_share_a_name():
    """The tests' folders are all on the import path (conftest.py), so two helpers with the
    same file name in two games' folders would be one module to whichever imports second
    (it happened twice: the no-peeking helpers, the secret-work scripts)."""
    seen = {}
    for path in glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True):
        name = os.path.basename(path)
        if name in ("conftest.py", "__init__.py"):
            continue
        seen.setdefault(name, []).append(os.path.relpath(path, ROOT))
    assert {n: p for n, p in seen.items() if len(p) > 1} == {}
