from cok.main import main

main()
