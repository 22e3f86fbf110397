#!/usr/bin/env python3
""".ci/tidy_configurations.py chooses, for a source compiled in several -D configurations, those
that compile the change's lines: a line inside one configuration's #if block is checked in that
configuration only, a line they all share once, and a unit the change leaves alone (a changed
header's stand-in) once. Without --changed-since every configuration is kept.

Usage: tidy_configurations_test.py PROJECT_SOURCE_DIR C_COMPILER
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None
COMPILER = None

SOURCE = """int shared(void) { return 1; }
#if defined(ALPHA)
int alpha(void) { return 2; }
#endif
#if defined(BETA)
int beta(void) { return 3; }
#endif
"""


class TidyConfigurations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = self.tmp.name
        self.git("init", "-q")
        self.git("config", "user.email", "test@example.com")
        self.git("config", "user.name", "test")
        self.write(SOURCE)
        self.git("add", "unit.c")
        self.git("commit", "-q", "-m", "first")
        self.database = os.path.join(self.repo, "db")
        os.makedirs(self.database)
        entries = [{"directory": self.repo, "file": "unit.c",
                    "command": f"{COMPILER} -D{name} -o {name}.o -c unit.c"}
                   for name in ("ALPHA", "BETA", "GAMMA")]
        with open(os.path.join(self.database, "compile_commands.json"), "w", encoding="utf-8") as out:
            json.dump(entries, out)

    def tearDown(self):
        self.tmp.cleanup()

    def git(self, *args):
        subprocess.run(["git", *args], cwd=self.repo, check=True)

    def write(self, text):
        with open(os.path.join(self.repo, "unit.c"), "w", encoding="utf-8") as out:
            out.write(text)

    def commit_change(self, old, new):
        self.write(SOURCE.replace(old, new))
        self.git("commit", "-q", "-am", "change")

    def chosen(self, *options):
        out = os.path.join(self.repo, "out")
        listing = subprocess.run([sys.executable, SCRIPT, self.database, out, *options],
                                 input="unit.c\n", cwd=self.repo, capture_output=True, text=True,
                                 check=True).stdout.split("\n")
        defines = []
        for line in filter(None, listing):
            folder, unit = line.split()
            self.assertEqual(unit, "unit.c")
            with open(os.path.join(folder, "compile_commands.json"), encoding="utf-8") as db:
                (entry,) = json.load(db)
            defines.append(entry["command"].split()[1])
        return defines

    def test_a_line_of_one_block_is_checked_in_its_configuration_only(self):
        self.commit_change("return 3;", "return 4;")
        self.assertEqual(self.chosen("--changed-since", "HEAD^1"), ["-DBETA"])

    def test_lines_of_two_blocks_need_both_configurations(self):
        self.commit_change("return 2;", "return 5;")
        self.write(SOURCE.replace("return 2;", "return 5;").replace("return 3;", "return 6;"))
        self.git("commit", "-q", "-am", "both")
        self.assertEqual(self.chosen("--changed-since", "HEAD~2"), ["-DALPHA", "-DBETA"])

    def test_a_shared_line_is_checked_once(self):
        self.commit_change("return 1;", "return 7;")
        self.assertEqual(len(self.chosen("--changed-since", "HEAD^1")), 1)

    def test_a_unit_the_change_leaves_alone_is_checked_once(self):
        self.write(SOURCE)
        with open(os.path.join(self.repo, "other.h"), "w", encoding="utf-8") as out:
            out.write("int other(void);\n")
        self.git("add", "other.h")
        self.git("commit", "-q", "-m", "header only")
        self.assertEqual(self.chosen("--changed-since", "HEAD^1"), ["-DALPHA"])

    def test_without_a_change_every_configuration_is_kept(self):
        self.assertEqual(self.chosen(), ["-DALPHA", "-DBETA", "-DGAMMA"])


if __name__ == "__main__":
    SCRIPT = os.path.join(sys.argv[1], ".ci", "tidy_configurations.py")
    COMPILER = sys.argv[2]
    unittest.main(argv=sys.argv[:1])
