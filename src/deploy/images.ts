/**
 * The engine images a deployment runs, each at a pinned tag with where the
 * tag comes from: one table, so a release bump is one line.
 *
 * A floating tag (latest, server-cuda) would start whatever release is newest
 * on the day the pod is scheduled, not the one the plan's memory figures and
 * flags were read for.
 */
import type { Engine } from "../plan/index.ts";

/** Which build of an engine the cards need. */
export type Accelerator = "cuda" | "rocm" | "cpu";

export interface EngineImage {
  image: string;
  tag: string;
  /** Where the tag and what it holds were read. */
  source: string;
  /**
   * The program and leading words the image runs the plan's command with,
   * in place of the command's own (python → python3 where the image has only
   * that); the plan's arguments follow unchanged.
   */
  program: readonly string[];
}

/**
 * vLLM's release when the plan names none: 0.19.0, the release of the
 * calibration sweep (test/fixtures/calibration) and the one commands.ts read every
 * vLLM flag at (test/fixtures/commands/engine-flags.json), inside the
 * 0.17-0.20 profile the plan checks against.
 */
export const VLLM_DEFAULT_RELEASE = "0.19.0";

/**
 * llama.cpp's build: b8234, a 2026 build whose server takes `-fa on`, the
 * value form commands.ts writes (a bare -fa would swallow the next word).
 * Published per build as ghcr.io/ggml-org/llama.cpp:server-cuda-b<N> and
 * server-b<N> (.github/workflows/docker.yml; docs/docker.md lists the variants).
 */
export const LLAMACPP_BUILD = "b8234";

/** SGLang's release: v0.5.18 on Docker Hub (lmsysorg/sglang), a 2026 release with every server_args flag commands.ts writes. */
export const SGLANG_RELEASE = "v0.5.18";

/**
 * The image for an engine on an accelerator, or the reason there is none.
 * `vllmRelease` is the release the plan was made for (EngineSettings.vllmVersion).
 */
export function engineImage(engine: Engine, accelerator: Accelerator, vllmRelease?: string): EngineImage | string {
  switch (engine) {
    case "vllm": {
      if (accelerator !== "cuda")
        return `vLLM on ${accelerator === "rocm" ? "AMD cards" : "a CPU"}: no pinned vLLM image for it is in Modelplan's table (vllm/vllm-openai is built for CUDA)`;
      const release = vllmRelease === undefined ? VLLM_DEFAULT_RELEASE : fullRelease(vllmRelease);
      return {
        image: "vllm/vllm-openai",
        tag: `v${release}`,
        source:
          vllmRelease === undefined
            ? `vLLM ${VLLM_DEFAULT_RELEASE}: the calibration sweep's release, whose flags the commands use (Docker Hub vllm/vllm-openai, one tag per release)`
            : `vLLM ${release}: the release the plan was made for (--vllm-version / Engine settings)`,
        program: ["vllm", "serve"],
      };
    }
    case "sglang":
      if (accelerator === "cpu") return "SGLang on a CPU: no pinned SGLang CPU image is in Modelplan's table";
      return {
        image: "lmsysorg/sglang",
        // The ROCm build of the same release for MI300-class cards (Docker Hub lmsysorg/sglang, <release>-rocm720-mi30x).
        tag: accelerator === "rocm" ? `${SGLANG_RELEASE}-rocm720-mi30x` : SGLANG_RELEASE,
        source: `SGLang ${SGLANG_RELEASE} (Docker Hub lmsysorg/sglang); python3, as the image and LWS's own SGLang example run it`,
        program: ["python3", "-m", "sglang.launch_server"],
      };
    case "llamacpp": {
      const variant = accelerator === "cuda" ? "server-cuda" : accelerator === "rocm" ? "server-rocm" : "server";
      return {
        image: "ghcr.io/ggml-org/llama.cpp",
        tag: `${variant}-${LLAMACPP_BUILD}`,
        source: `llama.cpp build ${LLAMACPP_BUILD}, ${variant} (docs/docker.md: the server image holds llama-server only, as its entrypoint /app/llama-server)`,
        program: ["/app/llama-server"],
      };
    }
    case "freetoken":
      return "FreeToken publishes no container image: run its command on the host (Slurm), or build an image with `pip install freetoken`";
  }
}

/**
 * An image for llama.cpp's rpc-server: none is published. ggml's GGML_RPC
 * option is OFF by default (ggml/CMakeLists.txt) and .devops/cuda.Dockerfile
 * does not turn it on, so neither rpc-server nor llama-server's --rpc is in
 * the official images; LWS's own llama.cpp example builds its own images too.
 */
export const LLAMACPP_RPC_IMAGE: EngineImage = {
  image: "<your-registry>/llama.cpp-rpc",
  tag: LLAMACPP_BUILD,
  source: `build llama.cpp ${LLAMACPP_BUILD} with -DGGML_RPC=ON (its official images are built without it) and push it here; it must hold rpc-server and llama-server`,
  program: ["llama-server"],
};

/** "0.15" → "0.15.0": every vLLM release line starts at .0 and tags are the full version. */
function fullRelease(version: string): string {
  const parts = version.replace(/^v/, "").split(".");
  return parts.length >= 3 ? parts.join(".") : [...parts, ...Array<string>(3 - parts.length).fill("0")].join(".");
}

/** "image:tag". */
export function imageRef(i: EngineImage): string {
  return `${i.image}:${i.tag}`;
}
