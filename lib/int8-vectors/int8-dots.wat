;; Dot products of 8-bit vectors with WebAssembly SIMD (128-bit): a row of `len` signed bytes (a
;; multiple of 16) against a query of as many, 16 components a step: each half sign-extended to
;; 16 bits, multiplied and summed pairwise into four 32-bit lanes (i32x4.dot_i16x8_s).
(module
  (import "env" "memory" (memory 1))
  ;; out[i] = rows[i] · query for `count` rows stored one after another from `rows`, `len` bytes each
  (func (export "dots") (param $rows i32) (param $count i32) (param $len i32) (param $query i32) (param $out i32)
    (local $row i32) (local $end i32) (local $k i32) (local $acc v128) (local $a v128) (local $b v128)
    (local.set $row (local.get $rows))
    (local.set $end (i32.add (local.get $rows) (i32.mul (local.get $count) (local.get $len))))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $row) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $row_done
          (loop $step
            (br_if $row_done (i32.ge_u (local.get $k) (local.get $len)))
            (local.set $a (v128.load (i32.add (local.get $row) (local.get $k))))
            (local.set $b (v128.load (i32.add (local.get $query) (local.get $k))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $step)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $row (i32.add (local.get $row) (local.get $len)))
        (br $rows_loop)))))
