#pragma once
// Random choices among classes and among crops of an image (random_draws.h judges them), each
// held to what TensorFlow 2.21.0's CPU guarantees, measured on its kernels
// (tests/tensorflow_oracle/random_draws_in_cpu.py):
// - the candidate samplers: 64 candidates for true classes [4,2], unique and not, each in
//   [0, range_max) (range_max 10^6; FixedUnigram's 100 with unigrams, a class of weight 0 never
//   sampled), all distinct when unique=true, every expected count in (0, num_sampled];
//   AllCandidateSampler returns each of its num_sampled classes once, with expected counts 1,
//   and draws nothing (no fresh draw is asked of it). A second step must not repeat half of
//   the candidates: with 10^6 classes (FixedUnigram's 100: two draws agree on a place with
//   chance about 0.014), that happens to a correct sampler with probability below 10^-20.
// - SampleDistortedBoundingBox(V2): a crop [y, x, 0] + [h, w, -1] inside the image of at least
//   one pixel, `bboxes` its box normalised by the image, its area within area_range and (when
//   boxes are given) covering at least min_object_covered of a box, unless it is the whole
//   image (TensorFlow's answer when max_attempts found none); the aspect ratio is not judged
//   (TensorFlow rounds h and w after choosing it: 35 of 3000 of its crops of a 120x100 image
//   fall outside aspect_ratio_range). A second step must not give the same crop: judged for
//   image_size dtypes holding a 3000x4000 image (int16, int32, int64), where uniform offsets
//   repeat with probability below 1 / (1736 * 2737) < 3 * 10^-7; a 120x100 image (int8, uint8)
//   repeats a crop too often (about 10^-4) for a verdict that must not depend on luck.
#include "kernels/random_draws.h"

namespace conformance::kernels {

extern const DrawKind kRangeCandidates;  // Uniform, LogUniform, (ThreadUnsafe|Learned)Unigram
extern const DrawKind kFixedUnigramCandidates;  // FixedUnigram, with unigrams
extern const DrawKind kAllCandidates;           // AllCandidateSampler
extern const DrawKind kCrops;                   // SampleDistortedBoundingBox
extern const DrawKind kCropsV2;                 // ...V2: min_object_covered an input

}  // namespace conformance::kernels
