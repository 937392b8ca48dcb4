"""native_memory: memory freed inside glibc's heap goes back to the system."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from nemori_cli import native_memory


@pytest.mark.skipif(not native_memory.on_glibc(), reason="malloc_trim is glibc's")
def test_memory_freed_inside_the_heap_is_handed_back() -> None:
    # in a child, so that this process's heap does not decide the figures
    script = textwrap.dedent(
        """
        from nemori_cli.native_memory import release_free_memory
        def anon():
            for line in open("/proc/self/status"):
                if line.startswith("RssAnon"):
                    return int(line.split()[1]) // 1024
        blocks = [bytearray(65536) for _ in range(5_000)]  # ~320 MB from glibc's heap
        del blocks[::2]  # every other block freed: holes the heap's top cannot give back
        before = anon()
        release_free_memory()
        print(before, anon())
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    before, after = map(int, out.stdout.split())
    assert before - after > 100, (before, after)  # about half of the 320 MB

