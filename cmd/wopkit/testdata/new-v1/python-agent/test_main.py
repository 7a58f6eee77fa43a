"""Tests of the runtime entry: every node answers with the shape a host expects."""
import asyncio
import unittest

from main import NODES


class NodesTest(unittest.TestCase):
    def test_every_node_succeeds(self):
        for type_id, run in NODES.items():
            result = asyncio.run(run({"inputs": {"text": "hello"}}))
            self.assertEqual(result["status"], "success", type_id)
            self.assertIsInstance(result["outputs"], dict, type_id)


if __name__ == "__main__":
    unittest.main()
