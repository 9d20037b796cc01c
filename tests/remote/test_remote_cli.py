"""The remote play commands against a broker that says no: one line, status 2."""

import subprocess
import sys

from mpy_runner import ROOT


def test_a_wrong_password_is_one_line_and_status_2(broker, tmp_path):
    wrong = tmp_path / "wrong.pw"
    wrong.write_text("not-the-password\n")
    for args in (["remote", "join", "K7QXM2"], ["dealer"]):
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools"] + args
            + ["--broker", "127.0.0.1:%d" % broker.port, "--user", "bob",
               "--password-file", str(wrong), "--patience", "5"],
            capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        last = proc.stderr.splitlines()[-1]
        assert last.startswith(args[0] + ": the broker refused user bob: "), proc.stderr
