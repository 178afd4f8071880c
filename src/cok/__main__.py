from cok.cli.app import main

main()
