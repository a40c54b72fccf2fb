//! Times the phases of checking an ONNX model: decoding, checking, printing the
//! signature. `cargo run --release -p relay-onnx --example onnx_phases -- MODEL [REPS]`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: onnx_phases MODEL [REPS]");
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let bytes = bytes::Bytes::from(std::fs::read(path).expect("read the model"));
    let (mut read, mut check, mut show) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..reps {
        let t = Instant::now();
        let model = relay_onnx::read(bytes.clone()).expect("a model");
        let t1 = Instant::now();
        let mut c = relay_onnx::check_model(&model);
        let t2 = Instant::now();
        let sig = c.signature();
        let t3 = Instant::now();
        read = read.min((t1 - t).as_secs_f64());
        check = check.min((t2 - t1).as_secs_f64());
        show = show.min((t3 - t2).as_secs_f64());
        std::hint::black_box((sig, c.diagnostics().len()));
    }
    println!(
        "read {:.2} ms, check {:.2} ms, signature {:.2} ms (best of {reps})",
        read * 1e3,
        check * 1e3,
        show * 1e3
    );
}
