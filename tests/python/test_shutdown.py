"""Interpreter shutdown with live tensors: the process must exit cleanly (status 0, nothing on
stderr) whatever is still alive: tensors in globals and in reference cycles, NumPy arrays sharing
tensors' memory and tensors sharing NumPy arrays' memory, unconsumed DLPack capsules, and
threads still holding tensors when the interpreter finalizes.  Storage deleters that run during
or after finalization must not touch Python (fastpath.c checks Py_IsInitialized)."""

import os
import subprocess
import sys
import textwrap


import ctensor

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(ctensor.__file__)))


def _run(code, timeout=120):
    env = dict(os.environ)
    env["PYTHONPATH"] = _PKG_DIR + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                          text=True, timeout=timeout)
    # Sanitizer runs print their reports on stderr: any output there is a failure.
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert proc.stderr == "", proc.stderr
    return proc.stdout


def test_exit_with_live_tensors_and_numpy_sharing_them():
    out = _run("""
        import numpy as np
        import ctensor
        t = ctensor.arange(12.0).view(3, 4)
        view = t.t()
        arr = t.numpy()                    # NumPy array over the tensor's storage
        back = ctensor.from_numpy(np.ones(5))  # tensor over a NumPy array's memory
        back_view = back[1:]
        cycle = [t, back]
        cycle.append(cycle)                # a reference cycle holding tensors
        arr[0, 0] = 42.0
        assert t[0, 0].item() == 42.0
        print("alive", ctensor.live_tensors() > 0)
    """)
    assert out.strip() == "alive True"


def test_exit_with_unconsumed_dlpack_capsules():
    _run("""
        import numpy as np
        import ctensor
        t = ctensor.arange(6.0)
        cap = t.__dlpack__()                   # never consumed: its destructor frees it
        u = ctensor.from_dlpack(np.arange(3.0))    # ctensor owns a NumPy DLPack tensor
        v = np.from_dlpack(t)                      # NumPy owns a ctensor DLPack tensor
    """)


def test_exit_while_threads_hold_tensors():
    _run("""
        import threading, time
        import numpy as np
        import ctensor
        stop = threading.Event()
        def work(i):
            keep = ctensor.from_numpy(np.full(8, float(i)))
            while not stop.is_set():
                v = keep[1:].clone()
                w = ctensor.arange(100.0).view(10, 10).t().contiguous()
                del v, w
        for i in range(4):
            threading.Thread(target=work, args=(i,), daemon=True).start()
        time.sleep(0.3)
        # exit with the daemon threads still running and holding tensors over NumPy memory
    """)


def test_exit_from_a_thread_calling_sys_exit_with_tensors_in_module_state():
    _run("""
        import sys, threading
        import numpy as np
        import ctensor
        ctensor._keep = [ctensor.from_numpy(np.arange(4.0)) for _ in range(10)]
        def main():
            global held
            held = ctensor.zeros(3)
        th = threading.Thread(target=main); th.start(); th.join()
        sys.exit(0)
    """)


def test_tensors_released_by_atexit_and_finalizers():
    _run("""
        import atexit, weakref
        import numpy as np
        import ctensor
        keep = {"t": ctensor.from_numpy(np.arange(4.0))}
        atexit.register(lambda: keep.clear())       # released during shutdown, GIL held
        class Holder:
            def __init__(self):
                self.t = ctensor.ones(4).numpy()
            def __del__(self):
                self.t = None
        h = Holder()
        h.me = h                                     # collected by the final gc, if at all
    """)
