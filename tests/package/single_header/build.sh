c++ -std=c++17 -O2 -I. main.cpp -o main
