// The register layout of mma.sync's fp32 accumulators: scores S = Q K^T straight out of the
// tensor cores go through a collective without leaving registers.
#pragma once

#include "../detail/config.hpp"
#include "layout.cuh"

namespace rowfuse::collective {

/// The C and D fragments of `mma.sync.aligned.m16n8k16` (also m16n8k8, m16n8k32) with fp32
/// accumulators, for a warp tile of Rows x Cols made of (Rows / 16) x (Cols / 8) fragments held
/// as `float acc[Rows / 16][Cols / 8][4]` and passed flattened. Lane l, with g = l / 4 and
/// t = l % 4, holds in fragment (m, n)
///   acc[m][n][0], acc[m][n][1]:  row 16 m + g,      columns 8 n + 2 t, 8 n + 2 t + 1
///   acc[m][n][2], acc[m][n][3]:  row 16 m + g + 8,  the same columns
/// (PTX ISA, "Matrix Fragments for mma.m16n8k16", accumulators). So a row lives in the four
/// lanes of a quad (two shuffles per reduction), a lane holds 2 (Rows / 16) rows (slot
/// 2 m + h is row 16 m + g + 8 h), and each slot has Cols / 8 packs of two columns.
///
/// Two n-fragments of P side by side are also the A operand of the next m16n8k16 (P V): in
/// fp16 or bf16 pairs, registers {acc[m][2k][0..1], acc[m][2k][2..3], acc[m][2k+1][0..1],
/// acc[m][2k+1][2..3]} are a0..a7 of the k-th 16 keys.
template <int Rows, int Cols> struct mma_accumulator_layout {
  static_assert(Rows >= 16 && Rows % 16 == 0, "mma.sync m16n8 fragments: Rows a multiple of 16");
  static_assert(Cols >= 8 && Cols % 8 == 0, "mma.sync m16n8 fragments: Cols a multiple of 8");

  static constexpr int rows = Rows;
  static constexpr int cols = Cols;
  static constexpr int threads = 32;
  static constexpr int threads_per_row = 4;
  static constexpr int pack = 2;
  static constexpr int m_fragments = Rows / 16;
  static constexpr int n_fragments = Cols / 8;
  static constexpr int row_slots = 2 * m_fragments;
  static constexpr int packs_per_row = n_fragments;
  static constexpr int values = 4 * m_fragments * n_fragments;

  static constexpr int value_index(int slot, int p, int j) {
    return ((slot / 2) * n_fragments + p) * 4 + 2 * (slot % 2) + j;
  }
  ROWFUSE_HD static int tile_row(int lane, int slot) {
    return 16 * (slot / 2) + lane / 4 + 8 * (slot % 2);
  }
  ROWFUSE_HD static int tile_col(int lane, int p) { return 8 * p + 2 * (lane % 4); }
};

} // namespace rowfuse::collective
