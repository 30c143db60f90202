// Experiment (not part of the build): how to read and write rows that start off the 16-byte
// grid, before the register engine gets such a path (issue 11's >= 0.85 of copy on misaligned
// pointers and odd widths). A softmax over fp16 rows held in registers (a warp a row, or a block
// a row), every row one element off its 16-byte word and ld = cols + 1 (rowfuse-bench
// --misalign's layout: each row starts at another offset), with four ways to move the row:
//   scalar   single 2-byte elements, lane-strided (what the library runs today);
//   twoword  packs of 8 at columns (p * group + lane) * 8, each read with the two aligned 16-byte
//            words that cover it and shifted into place; written element by element (the
//            twelfth session's design);
//   shuffle  each lane reads the aligned word that starts its pack's cover and takes the second
//            from the next lane (a shuffle; the warp's last lane reads it itself); it writes the
//            aligned word made of the previous lane's last elements (a shuffle) and its own first
//            ones. Element-wise only where a word is partly outside the row, or at a warp's ends.
//   twoshuf  twoword's reads, shuffle's writes.
// and `aligned`, the same kernel on an aligned layout (cols a multiple of 8, ld = cols), the
// ceiling of each shape. Every output is checked against a host softmax on sampled rows, and
// the gap between rows (ld > cols) must keep its poison.
//   nvcc -std=c++20 -arch=sm_90 -O3 -Iinclude bench/experiments/realign.cu -o /tmp/realign
//   /tmp/realign   (prints: layout cols shape way ratio-to-copy max-error gap-ok)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cuda_fp16.h>

#include "median_time.cuh"

using index_t = long long;

enum class way { aligned, scalar, twoword, shuffle, twoshuf };
char const* name_of(way w) {
  switch (w) {
  case way::aligned:
    return "aligned";
  case way::scalar:
    return "scalar";
  case way::twoword:
    return "twoword";
  case way::shuffle:
    return "shuffle";
  case way::twoshuf:
    return "twoshuf";
  }
  return "?";
}

constexpr unsigned full_mask = 0xffffffffu;

struct word8 { // eight fp16 values as four 32-bit registers
  std::uint32_t r[4];
};

__device__ __forceinline__ word8 load_word(__half const* at) {
  uint4 const v = *reinterpret_cast<uint4 const*>(at);
  return {{v.x, v.y, v.z, v.w}};
}

__device__ __forceinline__ void store_word(__half* at, word8 const& w) {
  *reinterpret_cast<uint4*>(at) = make_uint4(w.r[0], w.r[1], w.r[2], w.r[3]);
}

__device__ __forceinline__ __half element(word8 const& w, int i) {
  std::uint32_t const reg = i < 2 ? w.r[0] : i < 4 ? w.r[1] : i < 6 ? w.r[2] : w.r[3];
  unsigned short const bits = (i & 1) ? (reg >> 16) : (reg & 0xffff);
  return __ushort_as_half(bits);
}

__device__ __forceinline__ void set_element(word8& w, int i, __half h) {
  unsigned short const bits = __half_as_ushort(h);
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (k == i / 2)
      w.r[k] = (i & 1) ? ((w.r[k] & 0xffffu) | (std::uint32_t(bits) << 16))
                       : ((w.r[k] & 0xffff0000u) | bits);
}

/// Elements `shift` .. 7 of `lo` then 0 .. shift-1 of `hi`: the pack that starts `shift` elements
/// into `lo`. Whole registers by selects, then a 16-bit funnel shift where `shift` is odd.
__device__ __forceinline__ word8 realign(word8 const& lo, word8 const& hi, int shift) {
  std::uint32_t w[8] = {lo.r[0], lo.r[1], lo.r[2], lo.r[3], hi.r[0], hi.r[1], hi.r[2], hi.r[3]};
  int const registers = shift / 2;
#pragma unroll
  for (int bit = 1; bit < 4; bit *= 2) {
#pragma unroll
    for (int i = 0; i + bit < 8; ++i)
      w[i] = (registers & bit) ? w[i + bit] : w[i];
  }
  word8 out;
  int const bits = (shift & 1) * 16;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out.r[i] = __funnelshift_r(w[i], w[i + 1], bits);
  return out;
}

/// Row `row` of x: element c at x + row * ld + c. `shift` = how many elements the row start lies
/// past its 16-byte word.
__device__ __forceinline__ int shift_of(__half const* row_start) {
  return int((reinterpret_cast<std::uintptr_t>(row_start) % 16) / 2);
}

/// The aligned word k of a row that starts `shift` elements into word 0 (columns 8k - shift ..
/// 8k - shift + 7), with -inf where a column lies outside [0, cols).
__device__ __forceinline__ word8 read_cover_word(__half const* row, int shift, index_t k,
                                                 index_t cols) {
  index_t const first = 8 * k - shift;
  __half const* const at = row + first; // aligned
  if (first >= 0 && first + 8 <= cols)
    return load_word(at);
  word8 w;
  __half const minus_inf = __ushort_as_half(0xfc00);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    index_t const c = first + i;
    set_element(w, i, c >= 0 && c < cols ? at[i] : minus_inf);
  }
  return w;
}

template <int P, int B, bool Whole> struct shape {
  static constexpr int packs = P, block = B;
  static constexpr bool whole = Whole;
  static constexpr int group = Whole ? B : 32;
  static constexpr index_t capacity = index_t(P) * group * 8;
};

template <class S, way W>
__global__ void __launch_bounds__(S::block)
    softmax_rows(__half const* x, __half* y, index_t rows, index_t cols, index_t ld) {
  constexpr int P = S::packs, G = S::group;
  using block_reduce = cub::BlockReduce<float, S::block>;
  __shared__ typename block_reduce::TempStorage reduce_storage;
  __shared__ float broadcast;
  int const lane = S::whole ? int(threadIdx.x) : int(threadIdx.x % 32);
  int const warp_lane = int(threadIdx.x % 32);
  index_t const row =
      S::whole ? index_t(blockIdx.x) : index_t(blockIdx.x) * (S::block / 32) + threadIdx.x / 32;
  if (row >= rows)
    return; // whole-block rows: the block's one row, the same test in every thread
  __half const* const xr = x + row * ld;
  __half* const yr = y + row * ld;
  float v[P][8];
  float const minus_inf = -INFINITY;

  // ---- read -------------------------------------------------------------------------------
  if constexpr (W == way::scalar) {
    __half raw[P][8];
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        index_t const c = index_t(p * 8 + j) * G + lane;
        raw[p][j] = c < cols ? xr[c] : __ushort_as_half(0xfc00);
      }
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        v[p][j] = __half2float(raw[p][j]);
  } else if constexpr (W == way::aligned) {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      index_t const c0 = index_t(p * G + lane) * 8;
      if (c0 < cols) {
        word8 const w = load_word(xr + c0);
#pragma unroll
        for (int j = 0; j < 8; ++j)
          v[p][j] = __half2float(element(w, j));
      } else {
#pragma unroll
        for (int j = 0; j < 8; ++j)
          v[p][j] = minus_inf;
      }
    }
  } else {
    int const shift = shift_of(xr);
    __half const* const grid_row = xr - shift; // 16-byte aligned
    // Words no lane reads (past the row) are -inf, so that what a shuffle brings from them is.
    word8 lo[P], hi[P];
#pragma unroll
    for (int p = 0; p < P; ++p)
      lo[p] = hi[p] = word8{{0xfc00fc00u, 0xfc00fc00u, 0xfc00fc00u, 0xfc00fc00u}};
    if constexpr (W == way::twoword || W == way::twoshuf) {
#pragma unroll
      for (int p = 0; p < P; ++p) {
        index_t const k = index_t(p * G + lane);
        if (8 * k < cols) {
          lo[p] = read_cover_word(grid_row + shift, shift, k, cols);
          hi[p] = read_cover_word(grid_row + shift, shift, k + 1, cols);
        }
      }
    } else { // shuffle: word k here, word k + 1 from the next lane
#pragma unroll
      for (int p = 0; p < P; ++p) {
        index_t const k = index_t(p * G + lane);
        if (8 * k - shift < cols)
          lo[p] = read_cover_word(xr, shift, k, cols);
        if (warp_lane == 31 && 8 * k < cols)
          hi[p] = read_cover_word(xr, shift, k + 1, cols);
      }
#pragma unroll
      for (int p = 0; p < P; ++p) {
        word8 next;
#pragma unroll
        for (int i = 0; i < 4; ++i)
          next.r[i] = __shfl_down_sync(full_mask, lo[p].r[i], 1);
        if (warp_lane != 31)
          hi[p] = next;
      }
    }
#pragma unroll
    for (int p = 0; p < P; ++p) {
      index_t const c0 = index_t(p * G + lane) * 8;
      if (c0 < cols) {
        word8 const w = realign(lo[p], hi[p], shift);
#pragma unroll
        for (int j = 0; j < 8; ++j)
          v[p][j] = __half2float(element(w, j));
      } else {
#pragma unroll
        for (int j = 0; j < 8; ++j)
          v[p][j] = minus_inf;
      }
    }
  }

  // ---- reduce: max, then the sum of exp ----------------------------------------------------
  auto const allreduce = [&](float value, auto op) {
    if constexpr (S::whole) {
      float const total = block_reduce(reduce_storage).Reduce(value, op);
      if (threadIdx.x == 0)
        broadcast = total;
      __syncthreads();
      float const result = broadcast;
      __syncthreads();
      return result;
    } else {
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2)
        value = op(value, __shfl_xor_sync(full_mask, value, offset));
      return value;
    }
  };
  float m = minus_inf;
#pragma unroll
  for (int p = 0; p < P; ++p)
#pragma unroll
    for (int j = 0; j < 8; ++j)
      m = fmaxf(m, v[p][j]);
  m = allreduce(m, [](float a, float b) { return fmaxf(a, b); });
  float s = 0.0f;
#pragma unroll
  for (int p = 0; p < P; ++p)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      v[p][j] = __expf(v[p][j] - m); // -inf (outside the row) gives 0
      s += v[p][j];
    }
  s = allreduce(s, [](float a, float b) { return a + b; });
  float const inverse = 1.0f / s;

  // ---- write -------------------------------------------------------------------------------
  if constexpr (W == way::scalar) {
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        index_t const c = index_t(p * 8 + j) * G + lane;
        if (c < cols)
          yr[c] = __float2half_rn(v[p][j] * inverse);
      }
  } else {
    word8 out[P];
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        set_element(out[p], j, __float2half_rn(v[p][j] * inverse));
    if constexpr (W == way::aligned) {
#pragma unroll
      for (int p = 0; p < P; ++p) {
        index_t const c0 = index_t(p * G + lane) * 8;
        if (c0 < cols)
          store_word(yr + c0, out[p]);
      }
    } else if constexpr (W == way::twoword) {
#pragma unroll
      for (int p = 0; p < P; ++p) {
        index_t const c0 = index_t(p * G + lane) * 8;
#pragma unroll
        for (int j = 0; j < 8; ++j)
          if (c0 + j < cols)
            yr[c0 + j] = element(out[p], j);
      }
    } else { // shuffle writes
      int const shift = shift_of(yr);
#pragma unroll
      for (int p = 0; p < P; ++p) {
        // Aligned word k = pack k - 1's last `shift` elements, then pack k's first 8 - shift.
        word8 previous;
#pragma unroll
        for (int i = 0; i < 4; ++i)
          previous.r[i] = __shfl_up_sync(full_mask, out[p].r[i], 1);
        index_t const k = index_t(p * G + lane);
        index_t const first = 8 * k - shift; // the column at the word's element 0
        if (8 * k >= cols)
          continue;                    // no pack of this row here
        __half* const at = yr + first; // aligned
        word8 const w = shift == 0 ? out[p] : realign(previous, out[p], 8 - shift);
        bool const has_previous = warp_lane != 0; // the previous pack is in this warp
        if (has_previous && first >= 0 && first + 8 <= cols) {
          store_word(at, w);
        } else {
#pragma unroll
          for (int i = 0; i < 8; ++i) {
            index_t const c = first + i;
            if (c >= 0 && c < cols && (has_previous || i >= shift))
              at[i] = element(w, i);
          }
        }
        // This pack's last `shift` elements go into word k + 1: written here where no lane of
        // this warp holds pack k + 1 (the warp's last lane, or the row's last pack).
        if (shift != 0 && (warp_lane == 31 || 8 * (k + 1) >= cols)) {
#pragma unroll
          for (int i = 0; i < 8; ++i) {
            index_t const c = first + 8 + i;
            if (i < shift && c < cols)
              at[8 + i] = element(out[p], 8 - shift + i);
          }
        }
      }
    }
  }
}

// ---- host side --------------------------------------------------------------------------------

float* flush;
cudaEvent_t e0, e1;
constexpr index_t elems = index_t(1) << 27;

template <class F> double time_ms(F f) {
  return median_time{3, 15, flush, 256u << 20, e0, e1}(f);
}

float to_float(std::uint16_t bits) {
  __half h;
  std::memcpy(&h, &bits, 2);
  return __half2float(h);
}

template <class S, way W>
void run_case(char const* shape_name, index_t cols, bool misaligned, __half* x, __half* y) {
  index_t const ld = misaligned ? cols + 1 : cols;
  index_t const rows = elems / ld - 1;
  __half* const xv = x + (misaligned ? 1 : 0);
  __half* const yv = y + (misaligned ? 1 : 0);
  std::size_t const span = std::size_t(rows * ld + 8);
  cudaMemset(y, 0xff, span * 2); // poison: NaN
  index_t const per_block = S::whole ? 1 : S::block / 32;
  index_t const grid = (rows + per_block - 1) / per_block;
  auto const launch = [&] {
    softmax_rows<S, W><<<unsigned(grid), S::block>>>(xv, yv, rows, cols, ld);
  };
  launch();
  cudaError_t err = cudaDeviceSynchronize();
  // Check: sampled rows against a host softmax; every row's gap still poisoned.
  std::vector<std::uint16_t> hx(span), hy(span);
  cudaMemcpy(hx.data(), x, span * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(hy.data(), y, span * 2, cudaMemcpyDeviceToHost);
  std::size_t const base = misaligned ? 1 : 0;
  double worst = 0.0;
  for (index_t r = 0; r < rows; r += std::max<index_t>(1, rows / 97)) {
    double mx = -1e30, sum = 0.0;
    for (index_t c = 0; c < cols; ++c)
      mx = std::max(mx, double(to_float(hx[base + r * ld + c])));
    for (index_t c = 0; c < cols; ++c)
      sum += std::exp(double(to_float(hx[base + r * ld + c])) - mx);
    for (index_t c = 0; c < cols; ++c) {
      double const want = std::exp(double(to_float(hx[base + r * ld + c])) - mx) / sum;
      double const got = to_float(hy[base + r * ld + c]);
      double const e = std::isnan(got) ? 1e30 : std::fabs(got - want) / (want * 2e-3 + 1e-7);
      worst = std::max(worst, e);
    }
  }
  bool gap_ok = hy[0] == 0xffff || !misaligned;
  if (misaligned)
    for (index_t r = 0; r + 1 < rows; ++r)
      gap_ok = gap_ok && hy[base + r * ld + cols] == 0xffff;
  double const copy_ms = time_ms(
      [&] { cudaMemcpyAsync(y, x, std::size_t(rows * cols) * 2, cudaMemcpyDeviceToDevice); });
  double const ms = time_ms(launch);
  if (err == cudaSuccess)
    err = cudaGetLastError();
  std::printf("%-10s %7lld %-14s %-8s %.3f  err %.2f  gap %s %s\n",
              misaligned ? "misaligned" : "aligned", cols, shape_name, name_of(W), copy_ms / ms,
              worst, gap_ok ? "ok" : "WRITTEN", err ? cudaGetErrorString(err) : "");
}

template <class S>
void run_shape(char const* shape_name, index_t aligned_cols,
               std::initializer_list<index_t> odd_cols, __half* x, __half* y) {
  run_case<S, way::aligned>(shape_name, aligned_cols, false, x, y);
  run_case<S, way::scalar>(shape_name, aligned_cols, false, x, y);
  for (index_t cols : odd_cols) {
    run_case<S, way::scalar>(shape_name, cols, true, x, y);
    run_case<S, way::twoword>(shape_name, cols, true, x, y);
    run_case<S, way::twoshuf>(shape_name, cols, true, x, y);
    run_case<S, way::shuffle>(shape_name, cols, true, x, y);
  }
}

int main() {
  cudaMalloc(&flush, 256u << 20);
  __half *x, *y;
  cudaMalloc(&x, elems * 2 + 64);
  cudaMalloc(&y, elems * 2 + 64);
  {
    std::vector<std::uint16_t> h(elems + 32);
    std::uint32_t state = 12345;
    for (auto& e : h) {
      state = state * 1664525u + 1013904223u;
      float const f = float(state >> 8) / float(1u << 24) * 8.0f - 4.0f;
      __half const v = __float2half_rn(f);
      std::memcpy(&e, &v, 2);
    }
    cudaMemcpy(x, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  }
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  run_shape<shape<4, 128, false>>("warp 4x8", 1024, {1000, 1023}, x, y);
  run_shape<shape<2, 256, true>>("block 256x2", 4096, {4095, 4097 - 8}, x, y);
  run_shape<shape<4, 256, true>>("block 256x4", 8192, {8191, 6000}, x, y);
  run_shape<shape<4, 512, true>>("block 512x4", 16384, {16383, 12289}, x, y);
  return 0;
}
