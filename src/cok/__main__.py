from cok.cli import main

main()
