"""llama.cpp's C API through ctypes, for what node-llama-cpp 3.21.1 cannot ask: a unified KV cache.

node-llama-cpp's addon leaves llama_context_params.kv_unified at llama.cpp's default (false), while
llama-server turns it on for its automatic slots (tools/server/server.cpp, v0.4.0). This loads the
same prebuilt libraries (node_modules/@node-llama-cpp/linux-x64/bins/linux-x64) and creates one
context per argument "n_ctx,n_seq_max,n_ubatch,kv_unified,flash_attn"; llama.cpp logs to stderr,
each context after a line "=== context <argument>".

The structs are read and written as bytes at the offsets of include/llama.h (v0.4.0, x86-64):
n_ctx 0, n_batch 4, n_ubatch 8, n_seq_max 12, n_threads 28, n_threads_batch 32, flash_attn_type 52,
swa_full 132, kv_unified 133. Declaring them larger than they are is safe under the SysV ABI: the
callee writes (returns) and reads (by-value arguments) only its own size from the start.
Usage: python3 unified.py <libdir> <model.gguf> <context>...
"""
import ctypes
import sys

libdir, model_path, contexts = sys.argv[1], sys.argv[2], sys.argv[3:]
for lib in ("libggml-base.so", "libggml.v0.4.0.so"):
    ctypes.CDLL(f"{libdir}/{lib}", mode=ctypes.RTLD_GLOBAL)
ggml = ctypes.CDLL(f"{libdir}/libggml.v0.4.0.so", mode=ctypes.RTLD_GLOBAL)
llama = ctypes.CDLL(f"{libdir}/libllama.v0.4.0.so", mode=ctypes.RTLD_GLOBAL)


class Params(ctypes.Structure):
    _fields_ = [("b", ctypes.c_ubyte * 1024)]

    def set_i32(self, offset, value):
        self.b[offset:offset + 4] = (ctypes.c_ubyte * 4)(*int(value).to_bytes(4, "little", signed=True))

    def i32(self, offset):
        return int.from_bytes(bytes(self.b[offset:offset + 4]), "little", signed=True)


ggml.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
llama.llama_model_default_params.restype = Params
llama.llama_context_default_params.restype = Params
llama.llama_model_load_from_file.argtypes = [ctypes.c_char_p, Params]
llama.llama_model_load_from_file.restype = ctypes.c_void_p
llama.llama_init_from_model.argtypes = [ctypes.c_void_p, Params]
llama.llama_init_from_model.restype = ctypes.c_void_p
llama.llama_free.argtypes = [ctypes.c_void_p]
llama.llama_model_free.argtypes = [ctypes.c_void_p]

ggml.ggml_backend_load_all_from_path(libdir.encode())
llama.llama_backend_init()

defaults = llama.llama_context_default_params()
# The offsets are right only if the defaults read back as llama.h documents them.
if (defaults.i32(4), defaults.i32(8), defaults.i32(12), defaults.i32(52), defaults.b[133]) != (2048, 512, 1, -1, 0):
    sys.exit("llama_context_params does not have the v0.4.0 layout this script writes; re-read include/llama.h")

model = llama.llama_model_load_from_file(model_path.encode(), llama.llama_model_default_params())
if not model:
    sys.exit(f"llama.cpp could not load {model_path}")
for spec in contexts:
    n_ctx, n_seq, n_ubatch, unified, flash = (int(x) for x in spec.split(","))
    p = llama.llama_context_default_params()
    for offset, value in ((0, n_ctx), (4, n_ubatch), (8, n_ubatch), (12, n_seq), (28, 1), (32, 1), (52, flash)):
        p.set_i32(offset, value)
    p.b[132] = 0  # swa_full off, as llama-server (common_params.swa_full = false) and node-llama-cpp run
    p.b[133] = unified
    print(f"=== context {spec}", file=sys.stderr, flush=True)
    ctx = llama.llama_init_from_model(model, p)
    if not ctx:
        sys.exit(f"llama.cpp could not create the context {spec}")
    llama.llama_free(ctx)
llama.llama_model_free(model)
