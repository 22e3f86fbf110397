#include "kernels/random_choices.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

// ---- candidate samplers ----------------------------------------------------------------------
constexpr std::int64_t kSampled = 64, kRangeMax = 1000000, kFixedRange = 100;

// Four examples of two true classes each (a repeated one in the last).
HostTensor TrueClasses() { return Values(TF_INT64, {4, 2}, {1, 5, 7, 9, 0, 4, 2, 2}); }

// FixedUnigram's weights: 1 to 7, and 0 for every class ending in 3 (never to be sampled).
std::vector<float> Unigrams() {
  std::vector<float> weights;
  weights.reserve(kFixedRange);
  for (int k = 0; k < kFixedRange; ++k)
    weights.push_back(k % 10 == 3 ? 0.0f : static_cast<float>(k % 7 + 1));
  return weights;
}

// Unique and not; `range_max` unset for AllCandidateSampler, whose range is num_sampled.
std::vector<CaseSpec> SamplerCases(std::int64_t range_max, bool fixed_unigrams) {
  std::vector<CaseSpec> cases;
  for (bool unique : {true, false}) {
    CaseSpec spec;
    spec.attrs["num_true"] = core::AttrValue(std::int64_t{2});
    spec.attrs["num_sampled"] = core::AttrValue(kSampled);
    spec.attrs["unique"] = core::AttrValue(unique);
    if (range_max > 0) spec.attrs["range_max"] = core::AttrValue(range_max);
    if (fixed_unigrams) {
      spec.attrs["unigrams"] = core::AttrValue(core::AttrList{.f = Unigrams()});
      spec.attrs["vocab_file"] = core::AttrValue(std::string());
      spec.attrs["distortion"] = core::AttrValue(1.0f);
      spec.attrs["num_reserved_ids"] = core::AttrValue(std::int64_t{0});
      spec.attrs["num_shards"] = core::AttrValue(std::int64_t{1});
      spec.attrs["shard"] = core::AttrValue(std::int64_t{0});
    }
    spec.inputs.push_back({"true_classes", TrueClasses()});
    spec.outputs.push_back({"sampled_candidates", TF_INT64});
    spec.outputs.push_back({"true_expected_count", TF_FLOAT});
    spec.outputs.push_back({"sampled_expected_count", TF_FLOAT});
    cases.push_back(std::move(spec));
  }
  return cases;
}

std::vector<CaseSpec> RangeCases(TF_DataType /*dtype*/, const TypeConstraints& /*types*/) {
  return SamplerCases(kRangeMax, false);
}
std::vector<CaseSpec> FixedUnigramCases(TF_DataType /*dtype*/, const TypeConstraints& /*types*/) {
  return SamplerCases(kFixedRange, true);
}
std::vector<CaseSpec> AllCases(TF_DataType /*dtype*/, const TypeConstraints& /*types*/) {
  return SamplerCases(0, false);
}

bool UniqueAttr(const CaseSpec& spec) {
  const auto found = spec.attrs.find("unique");
  return found != spec.attrs.end() && std::get<bool>(found->second);
}

std::optional<std::string> JudgeSampler(const CaseSpec& spec, const Outputs& draw) {
  const std::int64_t sampled = IntAttr(spec, "num_sampled");
  const std::int64_t range =
      spec.attrs.contains("range_max") ? IntAttr(spec, "range_max") : sampled;
  const HostTensor& true_classes = InputOf(spec, "true_classes");
  const HostTensor& candidates = *draw[0];
  const HostTensor& true_expected = *draw[1];
  const HostTensor& sampled_expected = *draw[2];
  if (auto wrong = DtypeAndShape(candidates, "sampled_candidates", TF_INT64, {sampled}))
    return wrong;
  if (auto wrong =
          DtypeAndShape(true_expected, "true_expected_count", TF_FLOAT, true_classes.shape))
    return wrong;
  if (auto wrong = DtypeAndShape(sampled_expected, "sampled_expected_count", TF_FLOAT, {sampled}))
    return wrong;
  const std::string where = "[0, " + std::to_string(range) + ")";
  std::set<double> seen;
  for (std::int64_t i = 0; i < sampled; ++i) {
    const double id = candidates.At(i);
    if (!(id >= 0 && id < static_cast<double>(range))) {
      return "sampled candidate " + std::to_string(i) + " is " + DrawNumber(id) + ", outside " +
             where + " (range_max " + std::to_string(range) + ")";
    }
    if (spec.attrs.contains("unigrams")) {
      const auto& weights = std::get<core::AttrList>(spec.attrs.at("unigrams")).f;
      if (weights.at(static_cast<std::size_t>(id)) == 0.0f) {
        return "sampled candidate " + std::to_string(i) + " is class " + DrawNumber(id) +
               ", whose unigram weight is 0: a class of probability 0 was sampled";
      }
    }
    if (!seen.insert(id).second && UniqueAttr(spec)) {
      return "sampled candidate " + std::to_string(i) + " is class " + DrawNumber(id) +
             " again although unique=true";
    }
  }
  // AllCandidateSampler: every class of its range once.
  if (!spec.attrs.contains("range_max") && static_cast<std::int64_t>(seen.size()) != sampled) {
    return "the candidates hold " + std::to_string(seen.size()) +
           " distinct classes, not each of " + where + " once";
  }
  for (const HostTensor* counts : {&true_expected, &sampled_expected}) {
    const char* name = counts == &true_expected ? "true_expected_count" : "sampled_expected_count";
    for (std::int64_t i = 0; i < counts->NumElements(); ++i) {
      const double count = counts->At(i);
      if (!(count > 0 && count <= static_cast<double>(sampled))) {
        return std::string(name) + " " + IndexString(counts->shape, i) + " is " +
               DrawNumber(count) + ", outside (0, num_sampled] = (0, " + std::to_string(sampled) +
               "]";
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> FreshCandidates(const CaseSpec& /*spec*/, const Outputs& first,
                                           const Outputs& second) {
  return MostlyRepeated(first, second, 0);
}

// ---- SampleDistortedBoundingBox(V2) ---------------------------------------------------------
struct CropCase {
  std::vector<double> boxes;  // [n, 4] normalised [y1, x1, y2, x2]
  float min_object_covered;
  std::vector<float> area_range;
};

// Whether T holds a 3000x4000 image (else 120x100).
bool WideImage(TF_DataType dtype) { return dtype != TF_INT8 && dtype != TF_UINT8; }

template <bool kV2>
std::vector<CaseSpec> CropCases(TF_DataType dtype, const TypeConstraints& /*types*/) {
  const bool wide = WideImage(dtype);
  const std::vector<CropCase> crops = {
      {{}, 0.0f, {0.05f, 0.1f}},                     // no boxes: the whole image is the box
      {{0.1, 0.2, 0.6, 0.7}, 0.5f, {0.05f, 0.5f}}};  // half a box covered
  std::vector<CaseSpec> cases;
  for (const CropCase& crop : crops) {
    CaseSpec spec;
    spec.attrs["T"] = core::AttrValue(dtype);
    spec.attrs["area_range"] = core::AttrValue(core::AttrList{.f = crop.area_range});
    spec.attrs["aspect_ratio_range"] = core::AttrValue(core::AttrList{.f = {0.75f, 1.33f}});
    spec.attrs["max_attempts"] = core::AttrValue(std::int64_t{100});
    spec.attrs["use_image_if_no_bounding_boxes"] = core::AttrValue(true);
    spec.inputs.push_back(
        {"image_size", Values(dtype, {3}, {wide ? 3000.0 : 120.0, wide ? 4000.0 : 100.0, 3})});
    const auto boxes = static_cast<std::int64_t>(crop.boxes.size() / 4);
    spec.inputs.push_back({"bounding_boxes", Values(TF_FLOAT, {1, boxes, 4}, crop.boxes)});
    if (kV2) {
      spec.inputs.push_back(
          {"min_object_covered", Values(TF_FLOAT, {}, {crop.min_object_covered})});
    } else {
      spec.attrs["min_object_covered"] = core::AttrValue(crop.min_object_covered);
    }
    spec.outputs.push_back({"begin", dtype});
    spec.outputs.push_back({"size", dtype});
    spec.outputs.push_back({"bboxes", TF_FLOAT});
    cases.push_back(std::move(spec));
  }
  return cases;
}

float MinObjectCovered(const CaseSpec& spec) {
  const auto found = spec.attrs.find("min_object_covered");
  if (found != spec.attrs.end()) return std::get<float>(found->second);
  return static_cast<float>(InputOf(spec, "min_object_covered").At(0));
}

// The largest share of a box the crop covers.
double Coverage(const HostTensor& boxes, double height, double width, double y, double x, double h,
                double w) {
  double best = 0;
  for (std::int64_t b = 0; b < boxes.NumElements() / 4; ++b) {
    const double y1 = boxes.At(4 * b) * height, x1 = boxes.At(4 * b + 1) * width;
    const double y2 = boxes.At(4 * b + 2) * height, x2 = boxes.At(4 * b + 3) * width;
    const double rows = std::max(0.0, std::min(y + h, y2) - std::max(y, y1));
    const double cols = std::max(0.0, std::min(x + w, x2) - std::max(x, x1));
    const double area = (y2 - y1) * (x2 - x1);
    if (area > 0) best = std::max(best, rows * cols / area);
  }
  return best;
}

std::optional<std::string> JudgeCrop(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& image = InputOf(spec, "image_size");
  const HostTensor& boxes = InputOf(spec, "bounding_boxes");
  const TF_DataType dtype = spec.outputs.front().dtype;
  const HostTensor& begin = *draw[0];
  const HostTensor& size = *draw[1];
  const HostTensor& bboxes = *draw[2];
  if (auto wrong = DtypeAndShape(begin, "begin", dtype, {3})) return wrong;
  if (auto wrong = DtypeAndShape(size, "size", dtype, {3})) return wrong;
  if (auto wrong = DtypeAndShape(bboxes, "bboxes", TF_FLOAT, {1, 1, 4})) return wrong;
  const double height = image.At(0), width = image.At(1);
  const double y = begin.At(0), x = begin.At(1), h = size.At(0), w = size.At(1);
  const std::string crop = "the crop [" + DrawNumber(y) + ", " + DrawNumber(x) + "] + [" +
                           DrawNumber(h) + ", " + DrawNumber(w) + "]";
  const std::string in_image = " of the " + DrawNumber(height) + "x" + DrawNumber(width) + " image";
  if (begin.At(2) != 0) return "begin's channel offset is " + DrawNumber(begin.At(2)) + ", not 0";
  // size's channel count is -1 (all channels) in T: every bit set, 255 in uint8.
  const std::size_t width_bytes = ElementSize(dtype);
  if (!std::all_of(size.bytes.begin() + static_cast<std::ptrdiff_t>(2 * width_bytes),
                   size.bytes.begin() + static_cast<std::ptrdiff_t>(3 * width_bytes),
                   [](std::uint8_t byte) { return byte == 0xFF; })) {
    return "size's channel count is " + DrawNumber(size.At(2)) + ", not -1 (every channel)";
  }
  if (y < 0 || x < 0 || h < 1 || w < 1 || y + h > height || x + w > width)
    return crop + " is not a crop" + in_image;
  const std::vector<double> expected = {y / height, x / width, (y + h) / height, (x + w) / width};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::abs(bboxes.At(static_cast<std::int64_t>(i)) - expected[i]) > 1e-6) {
      return "bboxes[0,0," + std::to_string(i) + "] is " +
             DrawNumber(bboxes.At(static_cast<std::int64_t>(i))) + ", not " +
             DrawNumber(expected[i]) + ", " + crop + " normalised by the image";
    }
  }
  if (h == height && w == width) return std::nullopt;  // no attempt succeeded: the whole image
  const auto& area_range = std::get<core::AttrList>(spec.attrs.at("area_range")).f;
  const double area = h * w / (height * width);
  if (area < area_range[0] - 1e-9 || area > area_range[1] + 1e-9) {
    return crop + " covers " + DrawNumber(area) + in_image + ", outside area_range [" +
           DrawNumber(area_range[0]) + ", " + DrawNumber(area_range[1]) + "]";
  }
  const double wanted = MinObjectCovered(spec);
  // Boxes in pixels are real numbers; a device may round their edges: a thousandth of slack.
  if (boxes.NumElements() > 0 && Coverage(boxes, height, width, y, x, h, w) < wanted - 1e-3) {
    return crop + " covers " + DrawNumber(Coverage(boxes, height, width, y, x, h, w)) +
           " of the box at most, below min_object_covered " + DrawNumber(wanted);
  }
  return std::nullopt;
}

std::optional<std::string> FreshCrop(const CaseSpec& spec, const Outputs& first,
                                     const Outputs& second) {
  // Only the crops of the 3000x4000 image without boxes: their offsets alone repeat less than
  // once in 3 * 10^6 (random_choices.h).
  if (!WideImage(spec.outputs.front().dtype) || InputOf(spec, "bounding_boxes").NumElements() > 0)
    return std::nullopt;
  if (first[0]->bytes != second[0]->bytes || first[1]->bytes != second[1]->bytes)
    return std::nullopt;
  return "a second compute of the same kernel instance gave the same crop again ([" +
         DrawNumber(first[0]->At(0)) + ", " + DrawNumber(first[0]->At(1)) + "] + [" +
         DrawNumber(first[1]->At(0)) + ", " + DrawNumber(first[1]->At(1)) +
         "]): TensorFlow reuses a node's kernel, so every step's augmentation repeats the first";
}

}  // namespace

const DrawKind kRangeCandidates{RangeCases, JudgeSampler, FreshCandidates};
const DrawKind kFixedUnigramCandidates{FixedUnigramCases, JudgeSampler, FreshCandidates};
const DrawKind kAllCandidates{AllCases, JudgeSampler, nullptr};
const DrawKind kCrops{CropCases<false>, JudgeCrop, FreshCrop};
const DrawKind kCropsV2{CropCases<true>, JudgeCrop, FreshCrop};

}  // namespace conformance::kernels
