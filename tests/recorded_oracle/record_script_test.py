"""The recorder's own rules (specs/ops/record/record.py), without TensorFlow: which cases
TensorFlow's CPU is no oracle for (a type attr its kernel ignores), which differences a host with
other CPU features may show (floating outputs' bits only), and that a release's overlay whose
entries the generator no longer makes is named as out of date."""
import gzip
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "specs", "ops", "record"))
import record  # noqa: E402

FLOAT, INT64 = 1, 9


def outputs(*tensors):
    return {"cpu": {"outputs": [{"dtype": d, "shape": s, "hex": h} for d, s, h in tensors]}}


class IgnoredTypeAttrs(unittest.TestCase):
    def test_argmax_int16_dimension_is_read_as_int32(self):
        case = {"op": "ArgMax", "attrs": {"T": {"type": FLOAT}, "Tidx": {"type": 5}}}
        why = record.ignored_type_attr(case)
        self.assertIn("reads the input dimension as int32", why)
        for tidx in (3, 9):  # int32 and int64 are read as themselves
            case["attrs"]["Tidx"]["type"] = tidx
            self.assertIsNone(record.ignored_type_attr(case))

    def test_sparse_add_thresh_is_read_as_the_real_type_of_t(self):
        case = {"op": "SparseAdd", "attrs": {"T": {"type": 8}, "Treal": {"type": FLOAT}}}
        self.assertIsNone(record.ignored_type_attr(case))  # complex64's parts are float
        case["attrs"]["Treal"]["type"] = 4  # uint8
        self.assertIn("reads the input thresh as float", record.ignored_type_attr(case))

    def test_other_ops_are_oracles(self):
        self.assertIsNone(record.ignored_type_attr({"op": "Floor", "attrs": {"T": {"type": 1}}}))


class HostDifferences(unittest.TestCase):
    def test_only_floating_bits_may_differ_on_another_host(self):
        recorded = outputs((FLOAT, [2], "0000803f00000040"), (INT64, [1], "0100000000000000"))
        other_bits = outputs((FLOAT, [2], "0100803f00000040"), (INT64, [1], "0100000000000000"))
        self.assertTrue(record.floating_only_difference(other_bits, recorded))
        other_index = outputs((FLOAT, [2], "0000803f00000040"), (INT64, [1], "0200000000000000"))
        self.assertFalse(record.floating_only_difference(other_index, recorded))
        other_shape = outputs((FLOAT, [1, 2], "0000803f00000040"),
                              (INT64, [1], "0100000000000000"))
        self.assertFalse(record.floating_only_difference(other_shape, recorded))
        refused = {"cpu": {"error": {"code": 3, "message": "no"}}}
        self.assertFalse(record.floating_only_difference(refused, recorded))


    def test_the_float64_run_may_differ_only_in_its_floating_bits_too(self):
        half = outputs((19, [1], "003c"))
        recorded = dict(half, float64={"outputs": [{"dtype": 2, "shape": [1],
                                                    "hex": "000000000000f03f"}]})
        other_bits = dict(half, float64={"outputs": [{"dtype": 2, "shape": [1],
                                                      "hex": "010000000000f03f"}]})
        self.assertTrue(record.floating_only_difference(other_bits, recorded))
        self.assertFalse(record.floating_only_difference(half, recorded))  # float64 run lost
        other_shape = dict(half, float64={"outputs": [{"dtype": 2, "shape": [1, 1],
                                                       "hex": "000000000000f03f"}]})
        self.assertFalse(record.floating_only_difference(other_shape, recorded))


class Float64Runs(unittest.TestCase):
    def test_only_cases_carrying_a_float64_run_run_in_float64(self):
        result = outputs((19, [1], "003c"))
        # None of these reaches TensorFlow: each is refused before its float64 run.
        self.assertEqual(record.float64_result({"op": "MatMul", "dtype": "half"}, result), {})
        refused = {"cpu": {"error": {"code": 3, "message": "no"}}}
        carrying = {"op": "MatMul", "dtype": "half", "float64_run": {"attrs": {}, "inputs": []}}
        self.assertEqual(record.float64_result(carrying, refused), {})

    def test_the_float64_run_replaces_attrs_inputs_and_dtype(self):
        wide_input = {"name": "a", "dtype": "double", "shape": [1], "hex": "000000000000f03f"}
        case = {"op": "MatMul", "dtype": "half", "attrs": {"T": {"type": 19}},
                "inputs": [{"name": "a", "dtype": "half", "shape": [1], "hex": "003c"}],
                "outputs": [{"name": "product"}],
                "float64_run": {"attrs": {"T": {"type": 2}}, "inputs": [wide_input]}}
        wide = record.in_float64(case)
        self.assertEqual((wide["dtype"], wide["attrs"], wide["inputs"]),
                         ("double", {"T": {"type": 2}}, [wide_input]))
        self.assertEqual(wide["outputs"], case["outputs"])


class OverlayInSync(unittest.TestCase):
    def write(self, path, content):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with gzip.open(path, "wt") as f:
            json.dump(content, f)

    def test_a_stale_overlay_entry_is_named(self):
        dump = {"tensorflow": "2.21.0",
                "cases": [{"op": "Erf", "dtype": "double", "shape_index": 0,
                           "attrs_digest": "a", "inputs_digest": "i"}]}
        ops = {"Erf": dump["cases"]}
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "2.21.0"))
            with open(os.path.join(out, "2.21.0", "host.json"), "w") as f:
                json.dump({"cpu_features": []}, f)
            overlay = os.path.join(out, "2.15.1")
            self.write(os.path.join(overlay, "Erf.json.gz"),
                       {"cells": {"double": [{"shape_index": 0, "attrs": "a", "inputs": "i"}]}})
            with open(os.path.join(overlay, "overlay.json"), "w") as f:
                json.dump({"release": "2.15.1"}, f)
            self.assertEqual(record.overlay_problems(out, dump, ops), [])
            self.write(os.path.join(overlay, "Erf.json.gz"),
                       {"cells": {"double": [{"shape_index": 0, "attrs": "a", "inputs": "old"},
                                             {"shape_index": 1, "attrs": "a", "inputs": "i"}]}})
            problems = record.overlay_problems(out, dump, ops)
            self.assertEqual(len(problems), 2, problems)
            self.assertIn("made from other inputs", problems[0])
            self.assertIn("no longer generated", problems[1])


if __name__ == "__main__":
    unittest.main()
