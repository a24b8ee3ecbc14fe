// Multiple-choice and ordering problems (issue #14, question kinds). Each option is a run of
// the problem's estimator (another layout, GPU or model) or another output of the one run; the
// key is whichever comes out lowest (or highest), never typed in.
#include <initializer_list>
#include <string_view>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

namespace {

Json states_only(const Values& p) {
  Json j = Json::object();
  for (const char* k : {"params", "dp", "zero_stage"}) j.set(k, p[k]);
  j.set("activations", "none");
  return j;
}
// The problems as constant rows (data in the wasm, not code); register_kind_problems turns
// each into a Problem.
struct ParamRow {
  Literal name;
  double fixed = 0;
  std::initializer_list<double> choices;
  Literal unit = "?";
};

struct KindRow {
  Literal id, area, title, source, statement;
  std::initializer_list<ParamRow> params;
  void (*derive)(Values&);
  Literal estimator;
  Json (*inputs)(const Values&);
  Literal output;
  AnswerUnit unit;
  std::initializer_list<Literal> hints;
  int variety, difficulty;
  Literal tags;
  Kind kind;
  bool highest;
  std::initializer_list<Option> options;
};

constexpr KindRow kRows[] = {
    {.id = "choice.node_boundary",
     .area = "training",
     .title = "Which parallelism crosses nodes?",
     .source = "Narayanan et al. 2021 (Megatron-LM) §3.3: TP within a node, PP across",
     .statement = "GPT-3 175B trains on 512 A100s, 8 per node: NVLink inside, {inter_bandwidth} "
                  "per GPU between nodes, {global_batch:raw} sequences per step. Which layout "
                  "gives the shortest step?",
     .params = {{"inter_bandwidth", 25e9, {12.5e9, 25e9, 50e9, 100e9}},
                {"global_batch", 1536, {512, 1024, 2048}},
                {"tp", 8},
                {"pp", 8},
                {"dp", 8}},
     .derive = nullptr,
     .estimator = "train.step",
     .inputs = nullptr,
     .output = "step_time",
     .unit = {unit::seconds, "s", 1},
     .hints = {"Which of TP, PP and DP talks most often?",
               "TP all-reduces twice per layer per pass; PP sends once per microbatch."},
     .variety = 9,
     .difficulty = 2,
     .tags = "tensor parallel,pipeline,network,conceptual",
     .kind = Kind::choice,
     .highest = false,
     .options = {{"TP 16 × PP 4 × DP 8: TP crosses nodes",
                  "TP all-reduces in every layer: at {inter_bandwidth} that dominates.",
                  "tp=16 pp=4 dp=8 zero_stage=0"},
                 {"TP 8 × PP 8 × DP 8: PP and DP cross",
                  "TP stays on NVLink; stages pass one activation per microbatch, but idle "
                  "in the bubble.",
                  "tp=8 pp=8 dp=8 zero_stage=0"},
                 {"TP 8 × DP 64, ZeRO-3: FSDP crosses",
                  "ZeRO-3 gathers every weight twice a step across nodes: cheap only on fast "
                  "links or small batches.",
                  "tp=8 pp=1 dp=64 zero_stage=3"}}},
    {.id = "choice.decode_bound",
     .area = "inference",
     .title = "What a decode step waits for",
     .source = "Pope et al. 2022 (Efficiently Scaling Transformer Inference) §2",
     .statement = "A {params}-parameter BF16 model decodes a batch of {batch:raw} with "
                  "{context} tokens of context each ({kv_bytes_per_token} of KV cache) on one "
                  "H100. Which takes longest in a step?",
     .params = {{"params", 70e9, {8e9, 70e9}},
                {"batch", 1, {1, 16, 64, 256}},
                {"context", 4096, {1024, 8192, 32768}},
                {"kv_bytes_per_token", 327680, {131072, 327680}}},
     .derive = nullptr,
     .estimator = "infer.decode",
     .inputs = nullptr,
     .output = "step_time",
     .unit = {unit::seconds, "ms", 1e-3},
     .hints = {"What must be read from memory once per step, and what once per sequence?",
               "Weights: N × 2 B; KV: batch × context × KV bytes; math: 2N × batch FLOPs."},
     .variety = 15,
     .difficulty = 2,
     .tags = "decode,roofline,KV cache,conceptual",
     .kind = Kind::choice,
     .highest = true,
     .options = {{"Reading the weights", "Every step reads each weight once, whatever the batch.",
                  "", "weight_time"},
                 {"Reading the KV cache", "Each sequence reads its own cache: batch × context.", "",
                  "kv_time"},
                 {"The matrix math", "2 FLOPs per parameter per sequence; HBM is far slower.", "",
                  "compute_time"}}},
    {.id = "choice.largest_state",
     .area = "memory",
     .title = "The largest model state per GPU",
     .source = "Rajbhandari et al. 2020 (ZeRO) §5: stage 1 shards optimizer states, 2 "
               "gradients, 3 weights",
     .statement = "Mixed-precision Adam (2-byte weights and gradients, 12 bytes of optimizer "
                  "state per parameter) trains a {params}-parameter model with ZeRO stage "
                  "{zero_stage:raw} over {dp:raw} GPUs. What takes the most memory per GPU?",
     .params = {{"params", 70e9, {7e9, 70e9, 405e9}},
                {"zero_stage", 2, {0, 1, 2, 3}},
                {"dp", 64, {4, 8, 64, 512}}},
     .derive = nullptr,
     .estimator = "mem.training",
     .inputs = states_only,
     .output = "model_states",
     .unit = {unit::bytes, "GB", 1e9},
     .hints = {"Which states does this stage split over the GPUs?",
               "Divide by DP: optimizer from stage 1, gradients from 2, weights at 3."},
     .variety = 15,
     .difficulty = 2,
     .tags = "memory,ZeRO,conceptual",
     .kind = Kind::choice,
     .highest = true,
     .options = {{"The weights", "2 bytes per parameter, split only at stage 3.", nullptr,
                  "weights"},
                 {"The gradients", "2 bytes per parameter, split from stage 2.", nullptr,
                  "gradients"},
                 {"The optimizer states", "12 bytes per parameter, split from stage 1.", "",
                  "optimizer"}}},
    {.id = "choice.allreduce",
     .area = "comm",
     .title = "Ring or tree all-reduce?",
     .source = "Thakur et al. 2005 (MPI collectives); NCCL's ring and tree algorithms",
     .statement = "{ranks:raw} GPUs all-reduce {bytes} over links of {bandwidth} with "
                  "{latency} per step. Which algorithm finishes first?",
     .params = {{"ranks", 64, {16, 64, 256}},
                {"bytes", 8192, {8192, 1e6, 1e8, 1e9}},
                {"bandwidth", 50e9, {25e9, 50e9}},
                {"latency", 5e-6, {2e-6, 5e-6}},
                {"tree", 0}},
     .derive = nullptr,
     .estimator = "comm.collective",
     .inputs =
         [](const Values& p) {
           Json j = Json::object();
           for (const char* k : {"ranks", "bytes", "bandwidth", "latency"}) j.set(k, p[k]);
           j.set("in_switch_reduction", false);
           j.set("algorithm", p["tree"] == 1 ? "tree" : "ring");
           return j;
         },
     .output = "time",
     .unit = {unit::seconds, "µs", 1e-6},
     .hints = {"Count the sequential steps, then the bytes each rank sends.",
               "Ring: 2(N − 1) steps; tree: about 2·log₂N; the ring sends the least."},
     .variety = 15,
     .difficulty = 2,
     .tags = "all-reduce,latency,conceptual",
     .kind = Kind::choice,
     .highest = false,
     .options = {{"Ring", "Fewest bytes, but 2(N − 1) latency steps.", "tree=0"},
                 {"Tree", "About 2·log₂N steps: it wins when latency dominates.", "tree=1"}}},
    {.id = "choice.kv_saving",
     .area = "inference",
     .title = "What shrinks the KV cache most?",
     .source = "Ainslie et al. 2023 (GQA) §2; Shazeer 2019 (MQA)",
     .statement = "A model has {n_layers:raw} layers of {n_heads:raw} attention heads of width "
                  "{head_dim:raw}, all with their own keys and values, cached in "
                  "{kv_bytes:raw}-byte values. Which change cuts its KV cache most?",
     .params = {{"n_layers", 80, {32, 40, 60, 80}},
                {"n_heads", 64, {32, 40, 64}},
                {"n_kv_heads", 0},
                {"head_dim", 128, {64, 128}},
                {"kv_bytes", 2, {2, 4}}},
     .derive = [](Values& p) { p.set("n_kv_heads", p["n_heads"]); },
     .estimator = "infer.kv",
     .inputs = nullptr,
     .output = "bytes_per_token",
     .unit = {unit::bytes_per_token, "kB", 1e3},
     .hints = {"Each change divides the cache by some factor: which factor is largest?",
               "Cache per token = 2 × layers × KV heads × head width × bytes."},
     .variety = 15,
     .difficulty = 1,
     .tags = "KV cache,attention,conceptual",
     .kind = Kind::choice,
     .highest = false,
     .options = {{"An 8-bit cache", "Divides by the bytes per value: {kv_bytes:raw}×.",
                  "kv_bytes=1"},
                 {"8 key/value heads (GQA)", "Divides by heads / 8: query heads share K and V.",
                  "n_kv_heads=8"},
                 {"Half the layers", "Halves it, and the model with it.", "n_layers*=0.5"}}},
    {.id = "choice.bubble",
     .area = "memory",
     .title = "What shrinks the pipeline bubble most?",
     .source = "Narayanan et al. 2021 (Megatron-LM) §2.2: bubble = (N − 1) / (v·M + N − 1)",
     .statement = "A 1F1B pipeline has {stages:raw} stages and {microbatches:raw} microbatches "
                  "per step. Which change makes the bubble's share of the step smallest?",
     .params = {{"stages", 8, {4, 8, 16, 32}},
                {"microbatches", 16, {4, 8, 16, 32, 64}},
                {"interleave", 1}},
     .derive = nullptr,
     .estimator = "pipe.bubble",
     .inputs = nullptr,
     .output = "bubble_fraction",
     .unit = {unit::fraction, "%", 0.01},
     .hints = {"The bubble is N − 1 slots; what sets the length of the rest of the step?",
               "Bubble = (N − 1) / (v·M + N − 1)."},
     .variety = 15,
     .difficulty = 2,
     .tags = "pipeline,conceptual",
     .kind = Kind::choice,
     .highest = false,
     .options = {{"Half the stages", "Fewer slots to fill and drain: N − 1 shrinks.",
                  "stages*=0.5"},
                 {"Twice the microbatches", "Doubles the work between fill and drain.",
                  "microbatches*=2"},
                 {"4 interleaved chunks per GPU", "Each bubble slot is 1/4 as long.",
                  "interleave=4"}}},
    {.id = "order.layouts",
     .area = "training",
     .title = "Rank layouts by step time",
     .source = "Narayanan et al. 2021 (Megatron-LM) §3.3, §5.4",
     .statement = "GPT-3 175B trains on 512 A100s, 8 per node, {inter_bandwidth} per GPU "
                  "between nodes, {global_batch:raw} sequences per step. Order these layouts "
                  "by step time, fastest first.",
     .params = {{"inter_bandwidth", 25e9, {12.5e9, 25e9, 50e9}},
                {"global_batch", 1536, {512, 1024, 2048}},
                {"tp", 8},
                {"pp", 8},
                {"dp", 8}},
     .derive = nullptr,
     .estimator = "train.step",
     .inputs = nullptr,
     .output = "step_time",
     .unit = {unit::seconds, "s", 1},
     .hints = {"Which traffic crosses the slow links, and how often?",
               "Per step: TP twice per layer per pass; ZeRO-3 all the weights twice; PP one "
               "activation per microbatch."},
     .variety = 9,
     .difficulty = 3,
     .tags = "tensor parallel,pipeline,ZeRO,network",
     .kind = Kind::order,
     .highest = false,
     .options = {{"TP 8 × DP 64, ZeRO-3", "Gathers every weight twice a step across nodes.",
                  "tp=8 pp=1 dp=64 zero_stage=3"},
                 {"TP 8 × PP 8 × DP 8", "Only activations and overlapped gradients cross.",
                  "tp=8 pp=8 dp=8 zero_stage=0"},
                 {"TP 16 × PP 4 × DP 8", "All-reduces in every layer across nodes.",
                  "tp=16 pp=4 dp=8 zero_stage=0"}}},
    {.id = "order.decode_gpus",
     .area = "inference",
     .title = "Rank GPUs by decode speed",
     .source = "Vendor datasheets (HBM bandwidth); Pope et al. 2022 §2",
     .statement = "A {params}-parameter BF16 model decodes at batch {batch:raw} on one GPU. "
                  "Order these GPUs by time per step, fastest first.",
     .params = {{"params", 8e9, {7e9, 8e9, 13e9, 34e9, 70e9}},
                {"batch", 1, {1, 4, 16}},
                {"context", 2048},
                {"peak_flops", figures::h100_bf16},
                {"mem_bandwidth", figures::h100_hbm_bandwidth}},
     .derive = nullptr,
     .estimator = "infer.decode",
     .inputs = nullptr,
     .output = "step_time",
     .unit = {unit::seconds, "ms", 1e-3},
     .hints = {"At small batch, what does each step read, and how fast?",
               "Step ≈ weight bytes / HBM bandwidth."},
     .variety = 14,
     .difficulty = 1,
     .tags = "decode,roofline,GPU",
     .kind = Kind::order,
     .highest = false,
     .options = {{"H100", "Its HBM bandwidth sets the pace.", "gpu=h100"},
                 {"B200", "Its HBM bandwidth sets the pace.", "gpu=b200"},
                 {"A100", "Its HBM bandwidth sets the pace.", "gpu=a100"},
                 {"MI300X", "Its HBM bandwidth sets the pace.", "gpu=mi300x"}}},
    {.id = "order.clusters",
     .area = "training",
     .title = "Rank clusters by training time",
     .source = "Kaplan et al. 2020 (6·N·D); NVIDIA A100, H100, B200 datasheets (dense BF16)",
     .statement = "A {params}-parameter model trains on {tokens} tokens at {mfu} MFU. Order "
                  "these clusters by time to train, fastest first.",
     .params = {{"params", 70e9, {8e9, 13e9, 34e9, 70e9, 175e9}},
                {"tokens", 2e12, {1e12, 2e12, 15e12}},
                {"mfu", 0.4, {0.35, 0.4, 0.5}},
                {"gpus", 1024},
                {"peak_flops", figures::h100_bf16}},
     .derive = nullptr,
     .estimator = "train.time",
     .inputs = nullptr,
     .output = "seconds",
     .unit = {unit::seconds, "days", 86400},
     .hints = {"Only the cluster's total FLOP/s differs between them.",
               "Time = 6·N·D / (GPUs × peak × MFU): compare GPUs × peak."},
     .variety = 15,
     .difficulty = 1,
     .tags = "training time,FLOPs,GPU",
     .kind = Kind::order,
     .highest = false,
     .options = {{"2,048 A100s", "Many GPUs, each slower.", "gpus=2048 gpu=a100"},
                 {"128 B200s", "The fastest GPU, but few of them.", "gpus=128 gpu=b200"},
                 {"1,024 H100s", "Half the A100s' count, about 3× the speed each.",
                  "gpus=1024 gpu=h100"}}}};

}  // namespace

void register_kind_problems(ProblemBank& bank) {
  for (const KindRow& r : kRows) {
    Problem p;
    p.id = r.id;
    p.area = r.area;
    p.title = r.title;
    p.source = r.source;
    p.statement = r.statement;
    for (const ParamRow& q : r.params) p.params.push_back({q.name, q.fixed, q.choices, q.unit});
    p.derive = r.derive;
    p.estimator = r.estimator;
    if (r.inputs) p.inputs = r.inputs;
    p.output = r.output;
    p.unit = r.unit;
    p.hints = r.hints;
    p.variety = r.variety;
    p.difficulty = r.difficulty;
    p.tags = r.tags;
    p.kind = r.kind;
    p.highest = r.highest;
    p.options = r.options;
    bank.add(std::move(p));
  }
}

}  // namespace napkin
