"""`make web` (python -m host_tools web --build): build the browser simulator, a static site.

The page runs the board's own firmware (firmware/core, firmware/games/*, firmware/hw) and
the simulator's virtual hardware (host_tools/simulator/engine.py and what it imports) on
MicroPython's WebAssembly port, the npm package pinned in web/package.json and
web/package-lock.json. It offers every game whose host package provides the page's parts
(host_tools/gamearg.py NEEDS["page"]) and has a board definition (board_def/GAME.json;
`--board` names the default game's, Kahuna's unless it is another game's). The build:

- installs the npm packages with `npm ci` (skipped when web/node_modules already holds
  the locked versions): that one, and `mqtt`, whose browser bundle (an ES module) the
  page's remote play (web/js/remote.js) imports when a game across tables starts, from
  vendor/mqtt/ (the site's own copy: no CDN);
- copies the page (web/index.html, web/style.css and the modules of web/js/ that it
  imports, with each offered game's web/js/GAME/page.js and what it imports; the live
  page's live.js is the live server's, not the site's) and the MicroPython runtime
  (vendor/micropython/);
- bundles the Python the page runs, one bundle per game so that a page loads its own game
  only, py/GAME.json: the modules host_tools/web/game.py and the game's firmware and host
  parts import, followed import by import, and its board definition;
- writes games.json (the games offered, the default first) and boards/GAME.json, each
  game's board drawing from its picture part (page_geometry);
- writes sw.js, a service worker that keeps every file of the site for offline use,
  named by a hash of the site's content so a new build replaces the old files; the build
  checks that the site holds exactly the files its page loads (page_files), so the offline
  copy is the site and nothing else.

Everything the page loads comes from the site itself: any static host serves it.
"""

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from host_tools import mpy
from host_tools.paths import BOARD_DEF

ROOT = mpy.ROOT
WEB = os.path.join(ROOT, "web")
DEFAULT_OUT = os.path.join(ROOT, "build", "web")
BOARD = BOARD_DEF
PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
MQTT = "mqtt"  # remote play's MQTT client in the page (npm's mqtt, over websockets)
MQTT_BUNDLE = ("dist/mqtt.esm.js", "vendor/mqtt/mqtt.esm.js")  # in the package -> the site
PACKAGES = (PACKAGE, MQTT)
ENTRY = "host_tools.web.game"
# The page's host parts that run in the page (the picture runs here, at the build).
PAGE_PARTS = ("verbs", "simgame", "simreport", "webgame", "remote")
# Where a module's file lives: host tools at the root, the firmware's packages in firmware/.
PACKAGE_DIRS = {"host_tools": ROOT, "core": mpy.FIRMWARE, "games": mpy.FIRMWARE,
                "hw": mpy.FIRMWARE}
PAGE = "index.html"
PAGE_FILES = (PAGE, "style.css")


class BuildError(RuntimeError):
    pass


# ------------------------------------------------------------------ npm

def locked_version(package=PACKAGE):
    with open(os.path.join(WEB, "package-lock.json"), encoding="utf-8") as f:
        lock = json.load(f)
    return lock["packages"]["node_modules/" + package]["version"]


def installed_version(package=PACKAGE):
    path = os.path.join(WEB, "node_modules", package, "package.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def npm_ci(log=print):
    """Install the pinned packages unless web/node_modules already has those versions;
    the runtime's version."""
    want = {name: locked_version(name) for name in PACKAGES}
    if all(installed_version(name) == v for name, v in want.items()):
        return want[PACKAGE]
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm was not found: install Node.js and npm (Debian: apt-get install "
                         "nodejs npm); `make web` does it when CI=true")
    log("npm ci (%s)" % ", ".join("%s@%s" % kv for kv in want.items()))
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError("npm ci failed:\n" + proc.stderr.strip())
    for name, v in want.items():
        if installed_version(name) != v:
            raise BuildError("npm ci did not install %s@%s" % (name, v))
    return want[PACKAGE]


# ------------------------------------------------------------------ Python bundle

def module_file(name):
    """The source file of module `name` (a package's __init__.py), or None when it is
    not one of the project's (the standard library, micropython, ...)."""
    parts = name.split(".")
    base = PACKAGE_DIRS.get(parts[0])
    if base is None:
        return None
    path = os.path.join(base, *parts)
    if os.path.isdir(path):
        return os.path.join(path, "__init__.py")
    if os.path.exists(path + ".py"):
        return path + ".py"
    return None


def _imports(name, path):
    """Names of the modules that the module `name` at `path` imports, wherever in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    is_package = path.endswith("__init__.py")
    here = name if is_package else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                mod = base + ("." + node.module if node.module else "")
            else:
                mod = node.module
            out.append(mod)
            # `from games.kahuna import rules` imports the module games.kahuna.rules.
            out += [mod + "." + alias.name for alias in node.names]
    return out


def game_modules(names):
    """The interface and layout modules of the games `names` in the firmware: the platform
    finds a game by its name (core.gameload, core.board), which no import names, so each
    is an entry of its own. Games the page does not offer stay out of the bundle."""
    games = os.path.join(mpy.FIRMWARE, "games")
    return ["games.%s.%s" % (d, m) for d in sorted(names) for m in ("game", "layout")
            if os.path.isfile(os.path.join(games, d, m + ".py"))]


def offered(default=None):
    """The games the page offers, the default first: those whose host package provides
    the page's parts and that have a board definition."""
    from host_tools import gamearg
    from host_tools.games import NoGame

    out = []
    for game in gamearg.known():
        try:
            gamearg.check(game, "page")
        except NoGame:
            continue
        if os.path.isfile(os.path.join(ROOT, "board_def", game + ".json")):
            out.append(game)
    if default in out:
        out.remove(default)
        out.insert(0, default)
    return out


def part_modules(games):
    """The host parts of `games` that run in the page: the platform finds them by the
    game's name (host_tools.games.part), which no import names, so each is an entry."""
    return ["host_tools.games.%s.%s" % (g, p) for g in games for p in PAGE_PARTS]


def remote_modules(games):
    """The page's seat in a game across tables (host_tools/web/game.py's REMOTE_ENTRY, found
    by name), for the games with a remote part only: the others' pages do without."""
    from host_tools import games as hostgames
    from host_tools.web.game import REMOTE_ENTRY

    return [REMOTE_ENTRY] if any("remote" in hostgames.provides(g) for g in games) else []


def python_files(entry=ENTRY, games=None):
    """Repository paths of every module `entry` and the games need, their packages'
    __init__.py too."""
    seen = {}
    games = offered() if games is None else games
    todo = [entry] + game_modules(games) + part_modules(games) + remote_modules(games)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = module_file(name)
        if path is None:
            continue
        seen[name] = path
        parts = name.split(".")
        for i in range(1, len(parts)):
            todo.append(".".join(parts[:i]))  # the packages above it
        todo += _imports(name, path)
    return sorted(os.path.relpath(p, ROOT).replace(os.sep, "/") for p in seen.values())


NATIVE = re.compile(r"^([ \t]*)@micropython\.native[ \t]*$", re.M)


def without_native(source):
    """`source` with its `@micropython.native` lines made comments (the line numbers
    kept): the page's MicroPython (WebAssembly) has no native emitter, and its compiler
    refuses the decorator; the functions run as bytecode there, the same results."""
    return NATIVE.sub(r"\1# @micropython.native: not on the page", source)


def bundle(game, board_path):
    """py/GAME.json: the Python files the page runs for `game` (their machine-code
    decorators left out: `without_native`), and its board definition (from
    `board_path`)."""
    files = {}
    for rel in python_files(games=[game]):
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            files[rel] = without_native(f.read())
    named = "board_def/%s.json" % game
    with open(board_path, encoding="utf-8") as f:
        files[named] = f.read()
    return {"paths": ["firmware", "."], "entry": ENTRY, "board": named, "files": files}


# ------------------------------------------------------------------ the site

def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def _site_files(out):
    found = []
    for folder, _, names in os.walk(out):
        for n in names:
            found.append(os.path.relpath(os.path.join(folder, n), out).replace(os.sep, "/"))
    return sorted(found)


# What a page loads: an HTML file's local src= and href= (not data: or other sites'), a
# module's static imports, and the files its code fetches.
_HTML_REF = re.compile(r'\b(?:src|href)="([^"#?]+)"')
_JS_IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"')
_JS_FETCH = re.compile(r'\bfetch\(\s*"([^"]+)"')


def _local(ref):
    return ":" not in ref and not ref.startswith("//")


def game_files(games):
    """The files the page loads for the games it offers, by their names (main.js makes
    these paths from games.json): each game's page module, its board's drawing and its
    Python bundle."""
    return ([p % g for g in games for p in ("js/%s/page.js", "boards/%s.json", "py/%s.json")])


def page_files(site, page=PAGE, extra=()):
    """The files of `site` (a folder) that `page` loads: its scripts and style sheets, the
    modules they import (followed, relative to each module), the files they fetch
    (relative to the page), and the MicroPython runtime's files beside its module (the
    module loads the .wasm itself); `extra` are more files it loads (game_files), followed
    the same way. Relative paths with /, sorted; a file the folder does not hold is listed
    and followed no further (in web/, the files the build writes)."""
    found = set()
    todo = [page] + list(extra)
    while todo:
        rel = todo.pop()
        if rel in found:
            continue
        path = os.path.join(site, *rel.split("/"))
        found.add(rel)
        if not os.path.isfile(path) or not rel.endswith((".html", ".js")):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if rel.endswith(".html"):
            todo += [_join(rel, ref) for ref in _HTML_REF.findall(text) if _local(ref)]
            continue
        for ref in _JS_IMPORT.findall(text):
            target = _join(rel, ref)
            todo.append(target)
            if target.rpartition("/")[2] in RUNTIME_FILES:
                todo += [target.rpartition("/")[0] + "/" + n for n in RUNTIME_FILES]
        todo += [_join(page, ref) for ref in _JS_FETCH.findall(text) if _local(ref)]
    return sorted(found)


def _join(base, ref):
    """`ref` relative to the file `base` (both relative to the site), normalised."""
    return os.path.normpath(os.path.join(os.path.dirname(base), ref)).replace(os.sep, "/")


def check_site(out, files, extra=()):
    """BuildError unless the site's files are exactly those its page loads: a file it never
    loads would be cached for nothing, a file it loads and lacks would fail offline."""
    loads = page_files(out, extra=extra)
    extra = sorted(set(files) - set(loads))
    missing = sorted(set(loads) - set(files))
    if extra or missing:
        raise BuildError("the site's files are not the files its page loads (%s)"
                         % "; ".join(what % ", ".join(names) for what, names in (
                             ("never loaded: %s", extra), ("missing: %s", missing)) if names))


def service_worker(out, files):
    """sw.js: cache every file of the site under a name made from their content."""
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode())
        with open(os.path.join(out, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    with open(os.path.join(WEB, "sw.js"), encoding="utf-8") as f:
        template = f.read()
    listed = ["./"] + ["./" + rel for rel in files]
    return (template.replace("__CACHE__", json.dumps("kahuna-" + h.hexdigest()[:16]))
            .replace("__FILES__", json.dumps(listed, indent=1)))


def build(out=DEFAULT_OUT, board_path=BOARD, log=print):
    """Build the site into `out` (emptied first). Returns the list of its files."""
    from core import board as boardmod
    from core import gameload
    from host_tools.games import part

    try:
        board = boardmod.load(board_path)
    except boardmod.BoardError as e:
        raise BuildError("board: %s" % e) from e
    games = offered(board.game)
    if board.game not in games:
        raise BuildError("the page does not offer %s (its host package lacks a part the "
                         "page needs)" % board.game)
    boards = {g: board_path if g == board.game else
              os.path.join(ROOT, "board_def", g + ".json") for g in games}
    loaded = {g: board if g == board.game else boardmod.load(boards[g]) for g in games}
    version = npm_ci(log)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for name in PAGE_FILES:
        shutil.copy(os.path.join(WEB, name), os.path.join(out, name))
    extra = game_files(games)
    for rel in page_files(WEB, extra=extra):
        if rel.startswith("js/"):
            dest = os.path.join(out, *rel.split("/"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(os.path.join(WEB, *rel.split("/")), dest)
    vendor = os.path.join(out, "vendor", "micropython")
    os.makedirs(vendor)
    for name in RUNTIME_FILES:
        shutil.copy(os.path.join(WEB, "node_modules", PACKAGE, name), vendor)
    src, dest = MQTT_BUNDLE
    os.makedirs(os.path.join(out, os.path.dirname(dest)))
    shutil.copy(os.path.join(WEB, "node_modules", MQTT, src), os.path.join(out, dest))
    for g in games:
        _write(os.path.join(out, "py", g + ".json"), json.dumps(bundle(g, boards[g])))
        geometry = part(g, "picture").page_geometry(loaded[g])
        _write(os.path.join(out, "boards", g + ".json"), json.dumps(geometry))
    _write(os.path.join(out, "games.json"), json.dumps(
        [{"game": g, "title": gameload.load(g).TITLE} for g in games]))
    _write(os.path.join(out, "build.json"), json.dumps(
        {"micropython": {"package": PACKAGE, "version": version},
         "mqtt": {"package": MQTT, "version": installed_version(MQTT)}}))
    files = _site_files(out)
    check_site(out, files, extra)
    _write(os.path.join(out, "sw.js"), service_worker(out, files))
    return _site_files(out)


def sizes(out):
    """The site's size, measured: its files, and what a page loads for each game (the
    common page and runtime, its bundle and board)."""
    def kb(path):
        return os.path.getsize(os.path.join(out, path)) / 1000.0

    with open(os.path.join(out, "games.json"), encoding="utf-8") as f:
        games = [g["game"] for g in json.load(f)]
    def loads(rels):  # the mqtt bundle is loaded only when a game across tables starts
        return sum(kb(rel) for rel in rels if rel != MQTT_BUNDLE[1])

    common = loads(page_files(out)) - kb("games.json")
    per = ", ".join("%s %.0f KB (its Python %.0f KB)" % (
        g, common + loads(rel for rel in game_files([g]) if not rel.startswith("js/"))
        + loads(page_files(out, page="js/%s/page.js" % g)), kb("py/%s.json" % g))
        for g in games)
    mqtt = kb(MQTT_BUNDLE[1])
    return ("%.0f KB in all; a page loads: %s; a game across tables loads %.0f KB more "
            "(mqtt)" % (sum(kb(rel) for rel in _site_files(out)), per, mqtt))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools web --build",
                                 description="Build the browser simulator (a static site).")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (emptied first)")
    ap.add_argument("--board", default=BOARD, help="board definition JSON")
    args = ap.parse_args(argv)
    try:
        files = build(args.out, args.board)
    except (BuildError, OSError) as e:
        print("web: %s" % e, file=sys.stderr)
        return 2
    print("web: built %d files into %s; serve it with: python -m http.server -d %s"
          % (len(files), args.out, args.out))
    print("web: %s" % sizes(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
