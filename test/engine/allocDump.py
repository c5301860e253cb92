"""Where ggml-alloc puts each tensor of llama.cpp's compute graph: a diagnostic, not a test.

The compute buffer is the high-water mark of ggml-alloc's placement (ggml/src/ggml-alloc.c
ggml_dyn_tallocr_alloc: best fit among the free blocks, else the last block, which grows the buffer),
so a figure off by some rows is explained by what lies under the logits when they are placed. This
creates one context (one sequence, swa_full off, as llama-server runs), fills the cache to n_ctx in
ubatches so the last graph has the reserve's n_kv, decodes the last ubatch with every output (the
reserve's n_outputs), and writes each compute-buffer tensor the eval callback saw: first and last node
index that used it, offset and size in bytes, op, name, shape. Offsets into llama_context_params and
ggml_tensor are those of include/llama.h and ggml/include/ggml.h at v0.4.0 (x86-64): cb_eval 88,
swa_full 132; tensor buffer 8, ne 16, src 152, view_src 232, data 248, name 256.
Usage: python3 allocDump.py <libdir> <model.gguf> <n_ctx> <n_ubatch> <flash_attn 0|1> <out.tsv>
(libdir: node_modules/@node-llama-cpp/linux-x64/bins/linux-x64). A 2-layer gpt-oss at 8k takes ~3 min on 2 cores.
"""
import ctypes
import sys

libdir, model_path, n_ctx, n_ub, flash, out = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6]
base = ctypes.CDLL(f"{libdir}/libggml-base.so", mode=ctypes.RTLD_GLOBAL)
ggml = ctypes.CDLL(f"{libdir}/libggml.v0.4.0.so", mode=ctypes.RTLD_GLOBAL)
llama = ctypes.CDLL(f"{libdir}/libllama.v0.4.0.so", mode=ctypes.RTLD_GLOBAL)
COMPUTE_USAGE = 2  # GGML_BACKEND_BUFFER_USAGE_COMPUTE


class Params(ctypes.Structure):
    _fields_ = [("b", ctypes.c_ubyte * 1024)]

    def set(self, offset, value, size=4):
        self.b[offset:offset + size] = (ctypes.c_ubyte * size)(*int(value).to_bytes(size, "little", signed=size == 4))


class Batch(ctypes.Structure):
    _fields_ = [("n_tokens", ctypes.c_int32), ("token", ctypes.POINTER(ctypes.c_int32)), ("embd", ctypes.c_void_p),
                ("pos", ctypes.POINTER(ctypes.c_int32)), ("n_seq_id", ctypes.POINTER(ctypes.c_int32)),
                ("seq_id", ctypes.POINTER(ctypes.POINTER(ctypes.c_int32))), ("logits", ctypes.POINTER(ctypes.c_int8))]


for fn, res, args in (("ggml_nbytes", ctypes.c_size_t, [ctypes.c_void_p]),
                      ("ggml_backend_buffer_get_base", ctypes.c_void_p, [ctypes.c_void_p]),
                      ("ggml_backend_buffer_get_usage", ctypes.c_int, [ctypes.c_void_p]),
                      ("ggml_op_desc", ctypes.c_char_p, [ctypes.c_void_p])):
    getattr(base, fn).restype, getattr(base, fn).argtypes = res, args
ggml.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
llama.llama_model_default_params.restype = Params
llama.llama_context_default_params.restype = Params
llama.llama_model_load_from_file.argtypes, llama.llama_model_load_from_file.restype = [ctypes.c_char_p, Params], ctypes.c_void_p
llama.llama_init_from_model.argtypes, llama.llama_init_from_model.restype = [ctypes.c_void_p, Params], ctypes.c_void_p
llama.llama_batch_init.argtypes, llama.llama_batch_init.restype = [ctypes.c_int32] * 3, Batch
llama.llama_decode.argtypes = [ctypes.c_void_p, Batch]


def field(ptr, offset, size=8):
    return int.from_bytes(ctypes.string_at(ptr + offset, size), "little")


seen, nodes = {}, []


def root(t):
    """A view's storage is its source's."""
    while field(t, 232):
        t = field(t, 232)
    return t


def note(t):
    t = root(t)
    buf = field(t, 8)
    if t in seen or not buf or base.ggml_backend_buffer_get_usage(buf) != COMPUTE_USAGE:
        return t
    seen[t] = dict(off=field(t, 248) - base.ggml_backend_buffer_get_base(buf), size=base.ggml_nbytes(t),
                   op=base.ggml_op_desc(t).decode(), name=ctypes.string_at(t + 256, 64).split(b"\0")[0].decode(),
                   ne=[field(t, 16 + 8 * i) for i in range(4)], first=len(nodes), last=len(nodes))
    return t


@ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_bool, ctypes.c_void_p)
def on_eval(t, ask, _):
    if ask:
        for s in [t] + [field(t, 152 + 8 * i) for i in range(10)]:
            if s and note(s) in seen:
                seen[root(s)]["last"] = len(nodes)
        nodes.append(t)
    return True


ggml.ggml_backend_load_all_from_path(libdir.encode())
llama.llama_backend_init()
model = llama.llama_model_load_from_file(model_path.encode(), llama.llama_model_default_params())
p = llama.llama_context_default_params()
for offset, value in ((0, n_ctx), (4, n_ub), (8, n_ub), (12, 1), (28, 2), (32, 2), (52, flash)):
    p.set(offset, value)
p.set(88, ctypes.cast(on_eval, ctypes.c_void_p).value, 8)
p.b[132] = 0  # swa_full off
ctx = llama.llama_init_from_model(model, p)
if not ctx:
    sys.exit(f"llama.cpp could not create a context of {n_ctx} cells")
batch = llama.llama_batch_init(n_ub, 0, 1)
batch.n_tokens = n_ub
for start in range(0, n_ctx, n_ub):
    last = start + n_ub >= n_ctx
    for i in range(n_ub):
        batch.token[i], batch.pos[i], batch.n_seq_id[i], batch.logits[i] = 1 + i, start + i, 1, int(last)
        batch.seq_id[i][0] = 0
    if last:
        seen.clear()
        nodes.clear()
    if llama.llama_decode(ctx, batch) != 0:
        sys.exit(f"llama_decode failed at position {start}")
with open(out, "w") as f:
    f.write("first\tlast\toffset\tbytes\top\tname\tne\n")
    for d in sorted(seen.values(), key=lambda d: (d["off"], d["first"])):
        f.write(f'{d["first"]}\t{d["last"]}\t{d["off"]}\t{d["size"]}\t{d["op"]}\t{d["name"]}\t{d["ne"]}\n')
