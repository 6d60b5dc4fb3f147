c++ -std=c++17 -O2 $(pkg-config --cflags utf8dfa) main.cpp -o main $(pkg-config --libs utf8dfa)
