use relay_downstream_example as _;

fn main() -> std::process::ExitCode {
    relay_cli::main()
}
