//! The `relay` command. The `check` and `ops` subcommands arrive with the text-format
//! issue; until then it reports its version and exits with the usage status.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--version") | Some("-V") => {
            println!("relay {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: relay --version  (`check` and `ops` are not built yet)");
            ExitCode::from(2)
        }
    }
}
